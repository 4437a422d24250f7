import type { CountSource, TestCase, TestCounts } from '../../events.js';

export type RunnerName =
  'jest' | 'vitest' | 'mocha' | 'node-test' | 'ava' | 'node-tap' | 'jasmine' | 'playwright' | 'pytest' | 'unittest' | 'go' | 'cargo';

/** What a runner's report says: counts and, per test, its id and outcome. */
export interface RunnerReport {
  counts: TestCounts;
  tests: TestCase[];
}

/**
 * How the harness asks one runner for its report: arguments appended to the runner's own call
 * (`afterProgram` inserts them right after the program words instead: `go test -json ./...`),
 * environment variables, where stdout/stderr go (a runner that reports on a stream), and files the
 * harness writes next to the report first (jasmine's reporter module).
 */
export interface ReportRequest {
  args: string[];
  afterProgram?: boolean;
  env?: Record<string, string>;
  /** The runner writes its report on this stream: the harness redirects it into the report file. */
  stream?: 'stdout' | 'stderr' | 'both';
  files?: Array<{ path: string; content: string }>;
}

export interface Runner {
  name: RunnerName;
  source: CountSource;
  /** Number of leading words that name the runner in a direct call (`go test` → 2), when `words` is this runner's call; else undefined. */
  match(words: readonly string[]): number | undefined;
  /** `report` is a fresh path in a folder only the harness created for this run. */
  request(report: string, dir: string): ReportRequest;
  /** Undefined when the text is not this runner's report. `cwd` makes absolute file names relative. */
  parse(text: string, cwd: string): RunnerReport | undefined;
}
