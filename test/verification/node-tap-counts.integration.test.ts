import { describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNT_RULES, directCount } from '../../bench/real/manifest.js';
import { collectObserved } from '../../src/agent/verification/test-results/observe/collect-observed.js';
import { countCalls } from '../../src/agent/verification/test-results/observe/count-calls.js';
import { nodeObserver } from '../../src/agent/verification/test-results/observe/node-observer.js';
import { reportsDir } from '../../src/agent/verification/test-results/observe/types.js';
import { tempDir } from '../kit/temp.js';
import { tempProject } from '../kit/verify-files.js';
import { runObserved } from '../kit/verify-observe.js';
import { baseEnv, linkBin } from './observe/node-observe-kit.js';

// Real node processes on a shared machine.
jest.setTimeout(120_000);

/**
 * What `npm test` → `tap` (node-tap 18) prints when stdout is not a terminal, written by hand in its
 * format: a `# Subtest:` block per test file, nested blocks indented 4 spaces, plans after or before the
 * points, YAML diagnostics under failures (with a stack line that looks like a point), skipped and todo
 * subtests as bare points, a block opened by its name line and then a bare `# Subtest` line (as tap 18
 * prints some), a file that found no tests, and tap's closing `# { total }` line, which counts what tap's
 * parser surfaces: every leaf point (assertions, skipped and todo subtests, failures) and a subtest's point
 * whose block reads under another name (`format`: the bare `# Subtest` line leaves its block unnamed, so
 * tap-parser counts `ok 2 - format` too). `rejects` is the outcome of the subtest `parse > rejects bad`.
 */
function tap18(rejects: 'ok' | 'not ok'): string {
  const failing = rejects === 'not ok';
  const inner = failing
    ? [
        '            not ok 1 - should throw',
        '              ---',
        '              at:',
        '                fileName: test/a.js',
        '              stack: |',
        '                ok 3 - not a point',
        '              ...',
        '            ',
      ]
    : ['            ok 1 - should throw'];
  return [
    '',
    '> pkg@1.0.0 test',
    '> tap',
    '',
    'TAP version 14',
    '1..3',
    '# Subtest: test/a.js',
    '    # Subtest: parse',
    '        # Subtest: handles empty',
    '            ok 1 - should be equal',
    '            1..1',
    '        ok 1 - handles empty # time=1.2ms',
    '        ',
    '        # Subtest: rejects bad',
    ...inner,
    '            1..1',
    `        ${rejects} 2 - rejects bad # time=2.1ms`,
    '        ',
    '        1..2',
    `    ${rejects} 1 - parse # time=5ms`,
    '    ',
    '    # Subtest: format',
    '    # Subtest',
    '        1..2',
    '        ok 1 - should be equal',
    '        ok 2 - should be equal',
    '    ok 2 - format # time=1ms',
    '    ',
    '    ok 3 - later # SKIP',
    '    ok 4 - someday # TODO',
    '    1..4',
    `${rejects} 1 - test/a.js # time=100ms`,
    '',
    '# Subtest: test/b.js',
    '    ok 1 - should be equal',
    '    ok 2 - should be equal',
    '    1..2',
    'ok 2 - test/b.js # time=50ms',
    '',
    '# Subtest: test/c.js',
    '    1..0 # no tests found',
    'not ok 3 - test/c.js # time=30000ms',
    '  ---',
    '  signal: SIGKILL',
    '  ...',
    '',
    '----------|---------|----------|',
    'File      | % Stmts | % Branch |',
    '----------|---------|----------|',
    `# { total: 10, pass: ${failing ? 6 : 7}, fail: ${failing ? 2 : 1}, skip: 1, todo: 1 }`,
    '# time=250ms',
    '',
  ].join('\n');
}

/** The product's reading of one run's output when the node observer saw node-tap start (its `.seen` marker). */
async function counted(output: string, seenTap = true) {
  const dir = tempDir('proofpr-tap-dir-');
  mkdirSync(reportsDir(dir), { recursive: true });
  if (seenTap) writeFileSync(join(reportsDir(dir), 'node-tap-4242.seen'), '');
  const { calls, seen } = await collectObserved(dir, output, ['/checkout'], []);
  return countCalls(calls, seen, output);
}

const outcomes = (c: Awaited<ReturnType<typeof counted>>) => Object.fromEntries(c.tests.map((t) => [t.id, t.outcome]));

describe('node-tap 18: counted as tap counts, identified per test, read from its TAP tree', () => {
  it("counts as tap's closing totals (what tap's parser surfaces); one test id per leaf t.test, from the subtest path", async () => {
    const c = await counted(tap18('not ok'));
    expect(c.calls.map((x) => [x.runner, x.source, x.from])).toEqual([['node-tap', 'tap', 'output']]);
    expect(c.counts).toEqual({ passed: 6, failed: 2, skipped: 2, total: 10 });
    expect(c.checks).toEqual([{ runner: 'node-tap', counted: c.counts, summary: c.counts, agree: true }]);
    expect(c.source).toBe('tap');
    expect(c.note).toBeUndefined();
    expect(outcomes(c)).toEqual({
      'test/a.js > parse > handles empty': 'passed',
      'test/a.js > parse > rejects bad': 'failed',
      'test/a.js > format': 'passed',
      'test/a.js > later': 'skipped',
      'test/a.js > someday': 'skipped',
      'test/b.js > test/b.js': 'passed',
      'test/c.js > test/c.js': 'failed',
    });
  });

  it('the failure is attributed to the failing subtest, and the same id passes once it is fixed (red → green)', async () => {
    const red = outcomes(await counted(tap18('not ok')));
    const green = await counted(tap18('ok'));
    expect(green.counts).toEqual({ passed: 7, failed: 1, skipped: 2, total: 10 });
    expect(Object.keys(outcomes(green)).sort()).toEqual(Object.keys(red).sort());
    expect(red['test/a.js > parse > rejects bad']).toBe('failed');
    expect(outcomes(green)['test/a.js > parse > rejects bad']).toBe('passed');
    // Neither the parent subtest nor the file is a test of its own.
    expect(red['test/a.js > parse']).toBeUndefined();
    expect(red['test/a.js > test/a.js']).toBeUndefined();
  });

  it('colored output reads the same; without the .seen marker the top-level TAP summary is read as before', async () => {
    const colored = tap18('not ok').replace(/^( *)(not ok|ok) /gm, '$1\u001b[32m$2\u001b[39m ');
    expect((await counted(colored)).counts?.total).toBe(10);
    const blind = await counted(tap18('not ok'), false);
    expect(blind.calls.map((x) => x.runner)).toEqual(['tap']);
    expect(blind.counts?.total).toBe(3);
  });

  it("a file killed mid-run (tap's timeout): its finished subtests stay under its own file, its timeout point is one failing test", async () => {
    const killed = [
      'TAP version 14',
      '1..2',
      '# Subtest: test/slow.js',
      '    # Subtest: first',
      '        ok 1 - should be equal',
      '        1..1',
      '    ok 1 - first # time=1ms',
      '    ',
      '# Subtest: test/next.js',
      '    ok 1 - should be equal',
      '    1..1',
      'ok 1 - test/next.js # time=5ms',
      '',
      'not ok 2 - timeout!',
      '  ---',
      '  expired: test/slow.js',
      '  ...',
      '',
    ].join('\n');
    const c = await counted(killed);
    expect(outcomes(c)).toEqual({
      'test/slow.js > first': 'passed',
      'test/next.js > test/next.js': 'passed',
      'timeout! > timeout!': 'failed',
    });
  });

  it("the bench's node-tap rule (tap's own closing totals) counts what the product counts from the same output", async () => {
    expect(COUNT_RULES['node-tap']).toBeDefined();
    for (const rejects of ['ok', 'not ok'] as const) {
      const out = tap18(rejects);
      expect(directCount(out, 'node-tap')).toBe((await counted(out)).counts?.total);
    }
  });

  it("a TAP tree that does not add up to tap's own totals: both are named, and the count is not trusted", async () => {
    const out = tap18('ok').replace('# { total: 10, pass: 7,', '# { total: 12, pass: 9,');
    const c = await counted(out);
    expect(c.counts).toBeNull();
    expect(c.source).toBe('none');
    expect(c.checks).toEqual([
      {
        runner: 'node-tap',
        counted: { passed: 7, failed: 1, skipped: 2, total: 10 },
        summary: { passed: 9, failed: 1, skipped: 2, total: 12 },
        agree: false,
      },
    ]);
    expect(c.note).toContain('node-tap was counted 7 passed, 1 failed, 2 skipped but its own summary says 9 passed, 1 failed, 2 skipped');
  });
});

/** A stand-in for node-tap at its package's command-line entry, printing its TAP as tap 18 does. */
function fakeTapProject(output: string): string {
  const root = tempProject(
    {
      'tap-output.txt': output,
      'node_modules/tap/bin/run.js': `#!/usr/bin/env node\nprocess.stdout.write(require('fs').readFileSync('tap-output.txt', 'utf8'));\nprocess.exitCode = 1;\n`,
    },
    'proofpr-tap-proj-',
  );
  linkBin(root, 'tap', '../tap/bin/run.js');
  return root;
}

describe('node-tap inside the command as written, through the node observer', () => {
  it('a chained command (build && tap) counts as tap does, its exit status untouched', async () => {
    const root = fakeTapProject(tap18('not ok'));
    const { dir, code, stdout, stderr } = runObserved(nodeObserver, root, 'echo building && ./node_modules/.bin/tap', baseEnv());
    expect(code).toBe(1);
    const output = `${stdout}${stderr}`;
    const { calls, seen } = await collectObserved(dir, output, [root], []);
    expect([...seen]).toEqual(['node-tap']);
    const c = countCalls(calls, seen, output);
    expect(c.calls.map((x) => [x.runner, x.counts.total])).toEqual([['node-tap', 10]]);
    expect(c.counts).toEqual({ passed: 6, failed: 2, skipped: 2, total: 10 });
    expect(c.tests).toHaveLength(7);
  });
});
