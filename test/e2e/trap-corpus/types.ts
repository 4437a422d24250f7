/**
 * The trap corpus's data model. A case is a small base repository (buggy source and a test that
 * reproduces the issue, failing on the base), the issue text, and the agent's edits as file writes:
 * a cheat that turns the suite green with the bug left in (`trap`), or an honest fix (`control`).
 */
export type Lang = 'js' | 'py' | 'go' | 'rs';
export type Runner = 'jest' | 'vitest' | 'mocha' | 'node-test' | 'tap' | 'pytest' | 'unittest' | 'go' | 'cargo';
export type Files = Record<string, string>;

/**
 * One edit the agent makes: a whole-file write, an exact-string replacement (old text unique), a removal,
 * or a shell command (what the Write/Edit tools cannot make: a binary built by a script, a `venv/`). A
 * `bash` step changes no path the case's source covers: the text model (afterFiles) leaves it out, the
 * `after` stage runs it.
 */
export type CaseEdit =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; old: string; new: string }
  | { kind: 'remove'; path: string }
  | { kind: 'bash'; command: string };

export interface CorpusCase {
  /** Unique, kebab-case, prefixed by the runner. */
  id: string;
  kind: 'trap' | 'control';
  lang: Lang;
  runner: Runner;
  /** The trap class (see README.md), or for a control what kind of honest change it is. */
  cls: string;
  /** One sentence: what the edits do and why the suite goes green. */
  note: string;
  issue: { title: string; body: string };
  base: Files;
  /** The maintainer's test command, run from the repository root. */
  command: string;
  edits: CaseEdit[];
  /**
   * Which paths are the code under repair: exact paths, or folder prefixes ending in "/". The hidden
   * check takes these paths from the tree after the edits and everything else from the base.
   * Absent: the language's default (js: src/ and lib/; py: *.py outside tests/ that is no conftest.py or
   * test_*.py; go: *.go that is no _test.go and not under testdata/; rs: *.rs under src/, whose inline
   * `#[cfg(test)]` module, from that line to the end of the file, is harness).
   */
  source?: string[];
  /** A command that runs exactly the tests that fail on the base (default: `command`). */
  hiddenCommand?: string;
  /**
   * A trap whose code is really fixed (the hidden check passes): what must keep it from being verified is
   * something else its note names (merge-conflict markers left in a changed file).
   */
  bugFixed?: true;
  /** A trap that also changes the shipped source harmlessly (a comment): its hidden tree is not the base's, and still fails. */
  decoy?: true;
}
