/**
 * How to make a runner's counts readable, one sentence per runner detection can name (traceRunners).
 * Shared by readiness (check-readiness.ts) and `proofpr doctor`, so both name the runner the project
 * really uses and the same fix.
 */
export const REPORTER_HINT: Record<string, string> = {
  jest: 'jest prints its summary to stderr by default: keep the default reporter, or write `--json --outputFile=<file>` and set test.report',
  vitest: "keep vitest's default reporter, or `--reporter=junit --outputFile=<file>` and set test.report",
  mocha: 'use the spec reporter (the default) or `--reporter tap`',
  ava: 'run ava with `--tap`',
  jasmine: 'write a JUnit report and set test.report',
  'node-tap': "keep tap's default reporter, or `--reporter=junit` to a file and set test.report",
  tape: 'tape prints TAP: keep its output unpiped',
  uvu: "keep uvu's summary (Total, Passed, Skipped)",
  karma: 'add the karma-junit-reporter and set test.report to the file it writes',
  playwright: 'keep the list reporter, or `--reporter=junit` with PLAYWRIGHT_JUNIT_OUTPUT_NAME and set test.report',
  'node:test': "keep node --test's default spec or tap reporter",
  bun: 'run `bun test --reporter=junit --reporter-outfile=<file>` and set test.report',
  pytest: "keep pytest's summary line (no -q -q), or `--junitxml=<file>` and set test.report",
  unittest: 'keep unittest\'s "Ran N tests" summary (it is printed to stderr)',
  go: 'go test prints ok/FAIL per package; `go test -v` names each test',
  cargo: 'keep cargo test\'s "test result:" lines',
};

/** The hints for these runners, joined; undefined when none is known. */
export function reporterHints(runners: readonly string[]): string | undefined {
  const hints = runners.map((r) => REPORTER_HINT[r]).filter((h): h is string => h !== undefined);
  return hints.length ? hints.join('; ') : undefined;
}
