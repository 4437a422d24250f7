import { describe, expect, it, jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goObserver } from '../../../src/agent/verification/test-results/observe/go-observer.js';
import { runnerNamed } from '../../../src/agent/verification/test-results/runners/index.js';
import type { RunnerReport } from '../../../src/agent/verification/test-results/runners/types.js';
import { fixtureCopy, ids, run, runObserved, type Env, type Run } from '../../kit/verify-observe.js';

// Real go (CI installs golang-go), real processes, commands as written.
jest.setTimeout(180_000);
const GO_TIMEOUT = 150_000;
const project = () => fixtureCopy('test/fixtures/observe/go/calc', 'proofpr-goobs-');

function baseEnv(extra: Record<string, string> = {}): Env {
  return { ...process.env, GOFLAGS: '-modcacherw', GOTOOLCHAIN: 'local', ...extra };
}
/** Runs `command` as written with the observer's environment added; the go runner reads the whole output (as the harness's collector does). */
function observe(cwd: string, command: string, extra: Record<string, string> = {}): Run & { report: RunnerReport | undefined } {
  expect(goObserver.files('/unused')).toEqual([]);
  const r = runObserved(goObserver, cwd, command, baseEnv(extra), GO_TIMEOUT);
  return { ...r, report: runnerNamed('go')?.parse(`${r.stdout}\n${r.stderr}`, cwd) };
}
/** Every `--- PASS/FAIL/SKIP` line of a `go test -v` output. */
const doneLines = (out: string) => out.split('\n').filter((l) => /--- (PASS|FAIL|SKIP): /.test(l));

const EXPECTED = [
  'passed example.com/calc > ExampleAdd',
  'passed example.com/calc > TestAdd',
  'passed example.com/calc > TestFailsWhenAsked',
  'passed example.com/calc > TestPrints',
  'passed example.com/calc > TestTable',
  'passed example.com/calc > TestTable/negative',
  'passed example.com/calc > TestTable/nested',
  'passed example.com/calc > TestTable/nested/deep',
  'passed example.com/calc > TestTable/one_plus_one',
  'passed example.com/calc > TestTable/zero',
  'passed example.com/calc/parse > TestInt',
  'passed example.com/calc/parse > TestInt/1',
  'passed example.com/calc/parse > TestInt/22',
  'skipped example.com/calc > TestSkipped',
];

describe('go observer', () => {
  it('appends -test.v=true to the GOFLAGS the command would get, keeping its flags; no files; reads the output', () => {
    expect(goObserver.env('/d', { GOFLAGS: '-modcacherw' })).toEqual({ GOFLAGS: '-modcacherw -test.v=true' });
    expect(goObserver.env('/d', {})).toEqual({ GOFLAGS: '-test.v=true' });
    expect(goObserver.env('/d', { GOFLAGS: '-test.v=true' })).toEqual({ GOFLAGS: '-test.v=true' });
    expect(goObserver.outputRunners).toEqual(['go']);
  });

  it('go test ./... with table-driven and nested subtests: every test and subtest go test -v lists, nothing a test printed', () => {
    const root = project();
    const verbose = run(root, 'go test -v -count=1 ./...', baseEnv({ PARTIAL_LINE: '1' }), GO_TIMEOUT);
    const o = observe(root, 'go test -count=1 ./...', { PARTIAL_LINE: '1' });
    expect(o.stdout).toContain('no newline at the end--- PASS: TestPrints');
    expect([verbose.code, o.code]).toEqual([0, 0]);
    expect(ids(o.report)).toEqual(EXPECTED);
    // go test -v's own `--- ` lines, less the one TestPrints printed.
    expect(o.report?.counts).toEqual({ passed: 13, failed: 0, skipped: 1, total: doneLines(verbose.stdout).length - 1 });
    // What the observed run prints is what `go test -v` prints.
    const untimed = (out: string) =>
      doneLines(out)
        .map((l) => l.replace(/\([\d.]+s\)/, '(T)'))
        .sort();
    expect(untimed(o.stdout)).toEqual(untimed(verbose.stdout));
  });

  it('go vet ./... && go test ./...: vet keeps its output and exit status (a finding still stops the chain)', () => {
    const root = project();
    const ok = observe(root, 'go vet ./... && go test -count=1 ./...');
    expect(ok.code).toBe(0);
    expect(ok.report?.counts.total).toBe(14);
    writeFileSync(join(root, 'parse', 'bad.go'), 'package parse\n\nimport "fmt"\n\nfunc Bad() { fmt.Printf("%d\\n", "x") }\n');
    const plain = run(root, 'go vet ./... && go test -count=1 ./...', baseEnv(), GO_TIMEOUT);
    const bad = observe(root, 'go vet ./... && go test -count=1 ./...');
    expect(plain.code).not.toBe(0);
    expect(bad.code).toBe(plain.code);
    expect(bad.stderr).toBe(plain.stderr);
    expect(bad.stdout).toBe('');
    expect(bad.report).toBeUndefined();
  });

  it('a failing run keeps its exit status; the failed test is in the report; a cached rerun reports the same tests', () => {
    const root = project();
    const plain = run(root, 'go test ./...', baseEnv({ CALC_FAIL: '1' }), GO_TIMEOUT);
    const o = observe(root, 'go test ./...', { CALC_FAIL: '1' });
    expect([plain.code, o.code]).toEqual([1, 1]);
    expect(o.report?.counts).toEqual({ passed: 12, failed: 1, skipped: 1, total: 14 });
    expect(ids(o.report)).toContain('failed example.com/calc > TestFailsWhenAsked');
    const first = observe(root, 'go test ./parse');
    const cached = observe(root, 'go test ./parse');
    expect(cached.stdout).toContain('(cached)');
    expect(ids(cached.report)).toEqual(ids(first.report));
    expect(cached.report?.counts.total).toBe(3);
  });

  it('a go test -json in the command keeps its JSON, read the same way', () => {
    const root = project();
    const o = observe(root, 'go test -json -count=1 ./...');
    expect(o.code).toBe(0);
    expect(o.stdout.startsWith('{')).toBe(true);
    expect(ids(o.report)).toEqual(EXPECTED);
  });
});
