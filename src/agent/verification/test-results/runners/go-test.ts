import type { TestCase, TestOutcome } from '../../../events.js';
import { notBuilt } from '../unbuilt.js';
import { reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

interface Event {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
  /** go ≥ 1.24: the package whose build failed, on the package's `fail` event. */
  FailedBuild?: string;
}

/** One start of a test (`-count=2` starts it twice) and how it ended, if it did. */
interface Start {
  name: string;
  outcome?: TestOutcome;
}

// `go test -v` lines. Output a test printed without a final newline runs into the next line, so the
// marks are found at the end of a line too (`partial--- PASS: TestX (0.00s)`).
const RUN = /=== RUN {3}(\S+)\s*$/;
const DONE = /--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)\s*$/;
// The line go prints after each package's output: `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `FAIL\tpkg [build failed]`.
const PKG = /^(?:ok|FAIL|\?)\s+(\S+)\s+(\(cached\)|[\d.]+s|\[no test files\]|\[build failed\]|\[setup failed\])/;
const UNBUILT = /\[(?:build|setup) failed\]/;

const outcomeOf = (word: string): TestOutcome =>
  word === 'PASS' || word === 'pass' ? 'passed' : word === 'SKIP' || word === 'skip' ? 'skipped' : 'failed';

/** Starts and ends of tests, in order; a test counts only once it started (a test printing `--- PASS: Fake` is no test). */
class Starts {
  readonly list: Start[] = [];
  private open = new Map<string, Start>();
  start(name: string): void {
    const s: Start = { name };
    this.list.push(s);
    this.open.set(name, s);
  }
  /** Whether a test started and has not ended. */
  running(): boolean {
    return this.open.size > 0;
  }
  end(name: string, outcome: TestOutcome): void {
    const s = this.open.get(name);
    if (!s) return;
    s.outcome = outcome;
    this.open.delete(name);
  }
  /** The tests so far as cases under `pkg`; a test that started and never ended (a panic, a timeout) failed. */
  take(pkg: string): TestCase[] {
    const out = this.list.map((s) => testCase(undefined, pkg ? `${pkg} > ${s.name}` : s.name, s.outcome ?? 'failed'));
    this.list.length = 0;
    this.open.clear();
    return out;
  }
}

function jsonEvent(line: string): Event | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const e = JSON.parse(line) as unknown;
    return e && typeof e === 'object' && 'Action' in e ? (e as Event) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Both forms go test reports in: `go test -json` events (the package on every event) and `go test -v`
 * text, where a package's lines end with its `ok  pkg 0.01s` / `FAIL pkg …` line (go prints each
 * package's output in one piece). Undefined when neither is there, or when the text is go's plain
 * output (no `=== RUN`: per-test results unknown) with a package that had tests.
 */
function goReport(text: string): TestCase[] | undefined {
  const json = new Starts();
  const plain = new Starts();
  const tests: TestCase[] = [];
  let events = 0;
  let verbose = false;
  let pkgs = 0;
  let ranPkgs = 0;
  // Packages whose tests did not build: one failed test each (see unbuilt.ts).
  const unbuilt = new Set<string>();
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const e = jsonEvent(raw);
    if (e) {
      events++;
      // Package events only (a test's own output cannot add one). go ≥ 1.24 names the failed build in
      // FailedBuild (`pkg [pkg.test]`, or a dependency): the package is the event's.
      if (!e.Test && e.Package && e.Action === 'fail' && e.FailedBuild) unbuilt.add(e.Package);
      const out = !e.Test && e.Output ? PKG.exec(e.Output.trim()) : null;
      if (out && UNBUILT.test(out[2] ?? '')) unbuilt.add(out[1] ?? '');
      if (!e.Test || !e.Package) continue;
      const key = `${e.Package} > ${e.Test}`;
      if (e.Action === 'run') json.start(key);
      else if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') json.end(key, outcomeOf(e.Action));
      continue;
    }
    // go ≥ 1.20 frames its own lines with ^V under -test.v=test2json.
    const line = raw.replace(/\x16/g, '');
    const run = RUN.exec(line);
    if (run) {
      verbose = true;
      plain.start(run[1] ?? '');
      continue;
    }
    const done = DONE.exec(line);
    if (done) {
      plain.end(done[2] ?? '', outcomeOf(done[1] ?? ''));
      continue;
    }
    const pkg = PKG.exec(line);
    if (pkg) {
      pkgs++;
      // Not while a test is open: a test printing go's line adds nothing.
      if (UNBUILT.test(pkg[2] ?? '')) {
        if (!plain.running()) unbuilt.add(pkg[1] ?? '');
        continue;
      }
      if (!/\[no test files\]|\[no tests to run\]/.test(line)) ranPkgs++;
      tests.push(...plain.take(pkg[1] ?? ''));
    }
  }
  tests.push(...plain.take(''));
  // Plain output: known only when no package had tests to run.
  if (events === 0 && !verbose && (pkgs === 0 || ranPkgs > 0)) return undefined;
  return [...json.take(''), ...tests, ...[...unbuilt].map((p) => notBuilt(p))];
}

/**
 * go test, from its `-json` events or its `-v` text (the go observer sets `GOFLAGS=-test.v=true`, so
 * the command's own output carries them). Counted as `go test -v` reports them: every test AND every
 * subtest with a `--- PASS/FAIL/SKIP` line is one test (a table test with 3 cases is 4), each time it
 * ran. A test counts only when it started (`run` event / `=== RUN` line), so a test printing
 * `--- PASS: Fake` adds nothing. Id: `<package> > <Test/sub>`. A package whose tests do not build
 * (`FAIL pkg [build failed]`, `[setup failed]`) is one failed test, `<package> > [build failed]`.
 */
export const goTestRunner: Runner = {
  name: 'go',
  source: 'runner-report',
  match: (w) => (w[0]?.split('/').pop() === 'go' && w[1] === 'test' ? 2 : undefined),
  parse(text) {
    const tests = goReport(text);
    return tests ? reportOf(tests) : undefined;
  },
};
