import { isTestFile, type TestFilePatterns } from '../changes/test-files.js';

/** Anything under a folder a runner treats as tests, their data or their doubles. */
const HARNESS_DIR =
  /(?:^|\/)(?:test|tests|__tests__|spec|specs|e2e|testing\/fixtures|fixtures?|__fixtures__|testdata|__mocks__|__snapshots__|snapshots|cypress|playwright)\//i;
/** Runner configuration, setup and preload files (names the runners load by convention or configuration). */
const HARNESS_NAME = [
  /(?:^|\/)conftest\.py$/,
  /(?:^|\/)(?:pytest|tox)\.ini$/,
  /(?:^|\/)(?:jest|vitest|vitest\.workspace|ava|playwright|karma|cypress|wdio|nightwatch)\.conf(?:ig)?\.[cm]?[jt]s(?:on)?$/i,
  /(?:^|\/)vitest\.(?:workspace|projects)\.[cm]?[jt]s(?:on)?$/i,
  /(?:^|\/)\.mocharc(?:\.[a-z]+)?$/i,
  /(?:^|\/)\.taprc$/,
  /(?:^|\/)\.?c8rc(?:\.json)?$/,
  /(?:^|\/)\.nycrc(?:\.[a-z]+)?$/,
  /(?:^|\/)(?:jest|vitest|test|tests)[.-]?(?:setup|teardown|env|environment|helpers?|globals?)(?:[.-][\w-]+)?\.[cm]?[jt]sx?$/i,
  /(?:^|\/)setup-?tests?\.[cm]?[jt]sx?$/i,
  /(?:^|\/)setupTests\.[cm]?[jt]sx?$/,
  /\.snap$/,
  /(?:^|\/)jasmine\.json$/,
];

/**
 * Whether a repository path is part of the test harness: what the runner treats as test code or test
 * setup, rather than the code under test. Conservative: test sources by name or by the runner's own
 * configuration (`patterns`), anything under a test, fixture, snapshot or mock folder, runner configs,
 * setup and preload files, snapshots, `conftest.py`. `package.json` is not a harness path as a whole;
 * its test scripts and runner sections are (see packageHarnessKeys).
 */
export function isHarnessPath(path: string, patterns?: TestFilePatterns): boolean {
  if (isTestFile(path, patterns)) return true;
  if (HARNESS_DIR.test(path)) return true;
  return HARNESS_NAME.some((r) => r.test(path));
}

/** package.json keys that belong to the test harness: runner sections and test scripts (with their pre/post hooks). */
export const PACKAGE_RUNNER_KEYS = ['jest', 'mocha', 'ava', 'c8', 'nyc', 'tap', 'vitest', 'jasmine'] as const;

export function isTestScriptName(name: string): boolean {
  return /^(?:pre|post)?test(?:[:-].*)?$/.test(name) || /^(?:pre|post)?(?:unit|spec|e2e|coverage|cover)(?:[:-].*)?$/.test(name);
}
