import type { CountSource, TestCase, TestCounts } from '../../../events.js';

export type RunnerName =
  'jest' | 'vitest' | 'mocha' | 'node-test' | 'ava' | 'node-tap' | 'jasmine' | 'playwright' | 'pytest' | 'unittest' | 'go' | 'cargo';

/** What a runner's report says: counts and, per test, its id and outcome. */
export interface RunnerReport {
  counts: TestCounts;
  tests: TestCase[];
}

export interface Runner {
  name: RunnerName;
  source: CountSource;
  /** Number of leading words that name the runner in a direct call (`go test` → 2), when `words` is this runner's call; else undefined. */
  match(words: readonly string[]): number | undefined;
  /** Undefined when the text is not this runner's report. `cwd` makes absolute file names relative. */
  parse(text: string, cwd: string): RunnerReport | undefined;
}
