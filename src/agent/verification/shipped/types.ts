/** One ecosystem's answer to "which files does this project ship": decided from its own manifests. */
export interface EcosystemView {
  ecosystem: 'npm' | 'python' | 'go' | 'cargo';
  /** How it was decided, for the evidence ("what the entry points of ./package.json and the tests load"). */
  basis: string;
  shipped(path: string): boolean;
  /** The manifests read (changes to them are dependency changes, not the fix and not test infrastructure). */
  manifests: string[];
  /** Files whose test-only items are tests (Rust `#[cfg(test)]`): judged by part, not as a whole. */
  mixed?(path: string): boolean;
}

/** What one changed path is to the verification. */
export type ChangeKind =
  /** Code the project ships: the fix. */
  | 'shipped'
  /** A test source (by the runner's identity). */
  | 'test'
  /** A shipped source whose inline tests changed and whose code did not. */
  | 'inline-test'
  /** A shipped source whose code and inline tests both changed. */
  | 'mixed'
  /** A manifest or lock file: dependencies. */
  | 'manifest'
  /** Anything else: runner, transform and build configs, data, fixtures, generated files, ignore rules. */
  | 'infrastructure';

export interface ClassifiedChange {
  path: string;
  /** A added, M modified, D deleted (renames are a D and an A). */
  status: 'A' | 'M' | 'D';
  kind: ChangeKind;
  /** git's own binary judgement (numstat `-`). */
  binary?: boolean;
}

export interface FixView {
  /** How the shipped code was decided, per ecosystem; empty when no manifest was recognised. */
  basis: string[];
  changes: ClassifiedChange[];
}
