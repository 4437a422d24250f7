import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { RunEventInput } from '../../src/agent/events.js';
import { createHookRunner } from '../../src/agent/hooks/runner.js';
import { noHooks } from '../fakes/agent-stubs.js';
import { createVerifier, type VerifierOptions } from '../../src/agent/verification/verifier.js';
import type { Verifier } from '../../src/agent/verification/types.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { runSettingsOf } from '../../src/run/run-settings.js';
import { silentLogger } from '../../src/log.js';
import { makeExec, type RecordingExec } from '../hooks/helpers.js';
import type { SandboxSetting } from '../../src/workspace/sandbox.js';
import { git, makeRepo, write } from './git-repo.js';
import { tempDir } from '../kit/temp.js';

const SRC = 'export const add = (a, b) => a + b;\n';
const TEST = `import { test } from 'node:test';
import assert from 'node:assert';
import { add } from '../src/math.mjs';
test('adds', () => { assert.strictEqual(add(1, 2), 3); });
test('adds negatives', () => { assert.strictEqual(add(-1, 1), 0); });
`;

describe('createVerifier', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });

  const setup = async (
    yaml: string,
    files: Record<string, string> = { 'src/math.mjs': SRC, 'test/math.test.mjs': TEST },
    sandbox: SandboxSetting = 'off',
    extra: (root: string) => Partial<VerifierOptions> = () => ({}),
  ) => {
    const { root, baseSha } = makeRepo({ '.gitignore': 'reports/\n.ran\n', ...files });
    const runDir = tempDir('proofpr-rundir-');
    const config = parseRepoConfig(yaml);
    const { exec, tmp, dispose } = await makeExec(root, sandbox);
    disposers.push(dispose);
    const events: RunEventInput[] = [];
    const hooks = config.hooks.Stop.length
      ? createHookRunner({ config: config.hooks, exec, root, logger: silentLogger, onEvent: (e) => events.push(e) })
      : noHooks;
    const verifier = createVerifier({
      root,
      runDir,
      settings: runSettingsOf(config),
      exec,
      baseSha,
      hooks,
      onEvent: (e) => events.push(e),
      logger: silentLogger,
      scratchDir: tmp,
      ...extra(root),
    });
    return { root, runDir, verifier, events, exec };
  };

  /** What the loop does around a Bash call. */
  const bash = async (v: Verifier, exec: RecordingExec, root: string, command: string) => {
    const handle = await v.beforeBash(command);
    const startedAt = new Date().toISOString();
    const r = await exec({ command, cwd: root, timeoutMs: 60_000 });
    if (!handle) return undefined;
    return v.afterBash(handle, { command, exitCode: r.exitCode, output: r.output, startedAt, endedAt: new Date().toISOString() });
  };

  const failed = (gates: { name: string; passed: boolean }[]) => gates.filter((g) => !g.passed).map((g) => g.name);

  it('verifier - run, edit, stop: tests-fresh fails; run again: every gate passes', async () => {
    const { root, verifier, events, exec } = await setup('test:\n  command: node --test\n');
    expect(failed((await verifier.evaluate()).gates)).toEqual(['tests-ran', 'tests-passed', 'tests-fresh']);

    const run = await bash(verifier, exec, root, 'node --test');
    expect(run).toMatchObject({
      command: 'node --test',
      exitCode: 0,
      by: 'agent',
      source: 'tap',
      runner: 'tap',
      counts: { passed: 2, failed: 0, skipped: 0, total: 2 },
    });
    expect(run?.treeHash).toMatch(/^[0-9a-f]{40}$/);
    expect(events.filter((e) => e.type === 'test_run')).toHaveLength(1);
    expect((await verifier.evaluate()).ok).toBe(true);

    write(root, 'src/math.mjs', `${SRC}// tidy\n`);
    const stale = await verifier.evaluate();
    expect(stale.ok).toBe(false);
    expect(failed(stale.gates)).toEqual(['tests-fresh']);
    expect(stale.message).toContain('tests-fresh: files changed after the last test run: run the tests again (`node --test`)');

    await bash(verifier, exec, root, 'node --test');
    const fresh = await verifier.evaluate();
    expect(fresh).toMatchObject({ ok: true, message: '' });
    const gateEvents = events.filter((e) => e.type === 'gate');
    expect(gateEvents.length).toBe(4 * 5);
    expect(gateEvents.every((e) => e.type === 'gate' && e.final === false)).toBe(true);
  });

  it('verifier - a Bash command that is not the test command is not watched', async () => {
    const { verifier } = await setup('test:\n  command: node --test\n');
    expect(await verifier.beforeBash('git status')).toBeUndefined();
    expect(await verifier.beforeBash('node --testing')).toBeUndefined();
  });

  it('verifier - finalCheck runs the tests itself and records a harness run with its output', async () => {
    const { root, runDir, verifier, events, exec } = await setup('test:\n  command: node --test\n');
    await bash(verifier, exec, root, 'node --test');
    const final = await verifier.finalCheck();
    expect(final.ok).toBe(true);
    const runs = events.flatMap((e) => (e.type === 'test_run' ? [e.run] : []));
    // Issue 16: the baseline on the base commit, then the final run of the commit, both in clean checkouts.
    expect(runs.map((r) => `${r.by}:${r.kind ?? ''}`)).toEqual(['agent:', 'harness:baseline', 'harness:final']);
    expect(runs[2]).toMatchObject({
      command: 'node --test',
      exitCode: 0,
      source: 'junit',
      runner: 'node-test',
      counts: { passed: 2, failed: 0 },
    });
    expect(runs[2]?.commit).toBe(verifier.testedCommit?.()?.sha);
    expect(runs[2]?.tests?.map((t) => t.id).sort()).toEqual(['adds', 'adds negatives']);
    expect(runs[2]?.outputPath).toBe(join(runDir, 'tool-output', 'final-test-run-1.txt'));
    expect(readFileSync(runs[2]?.outputPath ?? '', 'utf8')).toContain('pass 2');
    expect(events.filter((e) => e.type === 'gate' && e.final).map((e) => e.type === 'gate' && e.name)).toContain('tests-kept');
  });

  it('verifier - the final run is the evidence: it fails when the tree is broken whatever the agent ran', async () => {
    const { root, verifier, exec } = await setup('test:\n  command: node --test\n');
    await bash(verifier, exec, root, 'node --test');
    // A different size from the base file: a same-size rewrite within the second of the last index
    // write is invisible to the seeded temporary index (racy git; see the workspace tree hash).
    write(root, 'src/math.mjs', 'export const add = (a, b) => a - b - 0;\n');
    const final = await verifier.finalCheck();
    expect(failed(final.gates)).toEqual(['tests-passed']);
  });

  it('verifier - a removed assertion fails assertions-kept even when the tests pass', async () => {
    const { root, verifier, exec } = await setup('test:\n  command: node --test\n');
    write(root, 'test/math.test.mjs', TEST.replace("test('adds negatives', () => { assert.strictEqual(add(-1, 1), 0); });\n", ''));
    await bash(verifier, exec, root, 'node --test');
    const v = await verifier.evaluate();
    expect(failed(v.gates)).toEqual(['assertions-kept']);
    // Parsed per test: the only assertion of "adds negatives" went with its test, and the hunk is named.
    expect(v.message).toContain('test/math.test.mjs:5 (base): test "adds negatives" removed or renamed');
    expect(v.message).toContain("test('adds negatives', () => { assert.strictEqual(add(-1, 1), 0); })");
  });

  it('verifier - a filter that matches no test fails tests-ran', async () => {
    const { root, verifier, exec } = await setup('test:\n  command: node --test\n');
    await bash(verifier, exec, root, 'node --test --test-name-pattern=nomatch');
    const v = await verifier.evaluate();
    expect(failed(v.gates)).toEqual(['tests-ran']);
    expect(v.message).toContain('0 test(s) executed');
  });

  it('verifier - counts come from test.report when the run writes it, and a stale report is ignored', async () => {
    const cmd =
      'node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml --test-reporter=spec --test-reporter-destination=stdout';
    const { root, verifier, exec } = await setup(`test:\n  command: node --test\n  report: reports/junit.xml\n`);
    write(root, 'reports/.keep', '');
    const first = await bash(verifier, exec, root, cmd);
    expect(first).toMatchObject({ source: 'junit', reportPath: 'reports/junit.xml', counts: { passed: 2, failed: 0, total: 2 } });
    // The next run does not write the report: the old one is not its evidence.
    const second = await bash(verifier, exec, root, 'node --test');
    expect(second).toMatchObject({ source: 'tap', counts: { passed: 2 } });
    expect(second?.reportPath).toBeUndefined();
  });

  it('verifier - a repository Stop hook that exits 2 fails stop-hooks and is recorded as a hook event', async () => {
    const { root, verifier, events, exec } = await setup(
      'test:\n  command: node --test\nhooks:\n  Stop:\n    - command: "echo CHANGELOG not updated >&2; exit 2"\n',
    );
    await bash(verifier, exec, root, 'node --test');
    const v = await verifier.evaluate();
    expect(failed(v.gates)).toEqual(['stop-hooks']);
    expect(v.message).toContain('CHANGELOG not updated');
    expect(events).toContainEqual({
      type: 'hook',
      event: 'Stop',
      name: 'echo CHANGELOG not updated >&2; exit 2',
      outcome: 'block',
      message: 'CHANGELOG not updated',
    });
  });

  it('verifier - red-green: a new test that fails on the base tree passes the gate, one that passes there fails it', async () => {
    const buggy = 'export const add = (a, b) => a + b + (a < 0 ? 1 : 0);\n';
    const base = { 'src/math.mjs': buggy, 'test/math.test.mjs': TEST.split('\n').slice(0, 4).join('\n') + '\n' };
    // The command writes into the worktree: the base worktree must be writable inside the sandbox.
    const yaml = 'test:\n  command: touch .ran && node --test\ngates:\n  red_green: true\n  final_run: false\n';

    const good = await setup(yaml, base, 'auto');
    write(good.root, 'src/math.mjs', SRC);
    write(good.root, 'test/math.test.mjs', TEST);
    await bash(good.verifier, good.exec, good.root, 'touch .ran && node --test');
    const v = await good.verifier.evaluate();
    expect(v.gates.find((g) => g.name === 'red-green')).toMatchObject({
      passed: true,
      detail: expect.stringContaining('failed on the base commit'),
    });
    expect(v.ok).toBe(true);

    const weak = await setup(yaml, base, 'auto', (root) => ({ gitDir: join(root, '.git') }));
    write(weak.root, 'src/math.mjs', SRC);
    write(
      weak.root,
      'test/math.test.mjs',
      `${base['test/math.test.mjs']}test('adds zero', () => { assert.strictEqual(add(0, 0), 0); });\n`,
    );
    await bash(weak.verifier, weak.exec, weak.root, 'touch .ran && node --test');
    const w = await weak.verifier.evaluate();
    expect(failed(w.gates)).toEqual(['red-green']);
    expect(w.message).toContain('pass on the base commit');
    // the temporary base worktree is gone
    expect(git(weak.root, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  const notices = (events: RunEventInput[]) => events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
  const files = { 'src/math.mjs': SRC, 'test/math.test.mjs': TEST };

  it('verifier - a planted test.report with a future date does not count: the final run is in a clean checkout and asks the runner itself', async () => {
    const { root, verifier, events } = await setup('test:\n  command: node --test\n  report: reports/junit.xml\n');
    write(root, 'reports/junit.xml', '<testsuites><testsuite tests="50" failures="0"/></testsuites>');
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(join(root, 'reports/junit.xml'), future, future);
    const final = await verifier.finalCheck();
    const run = events.flatMap((e) => (e.type === 'test_run' && e.run.kind === 'final' ? [e.run] : []))[0];
    expect(run).toMatchObject({ by: 'harness', source: 'junit', counts: { passed: 2, total: 2 } });
    expect(final.ok).toBe(true);
  });

  it('verifier - a list that writes a report dated in the future is not a test run at all', async () => {
    const { root, verifier, exec } = await setup('test:\n  command: node --test\n  report: reports/junit.xml\n');
    const run = await bash(
      verifier,
      exec,
      root,
      `node --test; node -e "const fs=require('fs');fs.mkdirSync('reports',{recursive:true});fs.writeFileSync('reports/junit.xml','<testsuites><testsuite tests=\\'50\\'/></testsuites>');const t=new Date(Date.now()+3600e3);fs.utimesSync('reports/junit.xml',t,t)"`,
    );
    expect(run).toBeUndefined();
  });

  it('verifier - the final run never deletes a report outside the worktree (symlinked folder)', async () => {
    const outside = tempDir('proofpr-outside-');
    writeFileSync(join(outside, 'junit.xml'), '<testsuites/>');
    const { root, verifier } = await setup('test:\n  command: node --test\n  report: out/junit.xml\n');
    symlinkSync(outside, join(root, 'out'));
    await verifier.finalCheck();
    expect(existsSync(join(outside, 'junit.xml'))).toBe(true);
  });

  it('verifier - a test.report the test command writes (not ignored) is left out of the tree hash: tests stay fresh', async () => {
    const cmd =
      'node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml --test-reporter=spec --test-reporter-destination=stdout';
    const { root, verifier, exec } = await setup(`test:\n  command: ${cmd}\n  report: reports/junit.xml\n`, {
      ...files,
      '.gitignore': '',
      'reports/.keep': '',
    });
    expect(await bash(verifier, exec, root, cmd)).toMatchObject({ source: 'junit', counts: { passed: 2 } });
    expect((await verifier.evaluate()).ok).toBe(true);
    const final = await verifier.finalCheck();
    expect(failed(final.gates)).toEqual([]);
  });

  it('verifier - a test command that writes a tracked file fails tests-fresh saying so, not "files changed after the last test run"', async () => {
    const cmd = `node --test && node -e "require('fs').writeFileSync('last-run.txt', String(Date.now()))"`;
    const { root, verifier, exec } = await setup(`test:\n  command: ${JSON.stringify(cmd)}\n`);
    await bash(verifier, exec, root, cmd);
    const v = await verifier.evaluate();
    expect(failed(v.gates)).toEqual(['tests-fresh']);
    expect(v.message).toContain('tests-fresh: the test command itself changed files: last-run.txt; add them to .gitignore or test.report');
    // The final run is in a clean checkout of the commit: what it writes there never reaches the worktree.
    const final = await verifier.finalCheck();
    expect(final.gates.find((g) => g.name === 'tests-fresh')?.passed).toBe(true);
  });

  it('verifier - the tree is hashed after the Stop hooks: a formatter hook that changes files fails tests-fresh naming the hook, then passes', async () => {
    const hook = "grep -q formatted src/math.mjs || echo '// formatted' >> src/math.mjs";
    const { root, verifier, exec } = await setup(
      `test:\n  command: node --test\nhooks:\n  Stop:\n    - command: ${JSON.stringify(hook)}\n`,
    );
    await bash(verifier, exec, root, 'node --test');
    const v = await verifier.evaluate();
    expect(failed(v.gates)).toEqual(['tests-fresh']);
    expect(v.message).toContain(`the repository's Stop hook (\`${hook}\`) changed files after the last test run (src/math.mjs)`);
    await bash(verifier, exec, root, 'node --test');
    expect((await verifier.evaluate()).ok).toBe(true);
    expect((await verifier.finalCheck()).ok).toBe(true);
  });

  it('verifier - a nested repository without a commit never throws: the run is not counted (notice) and the gates say why', async () => {
    const { root, verifier, events, exec } = await setup('test:\n  command: node --test\n');
    mkdirSync(join(root, 'sub'));
    git(join(root, 'sub'), 'init', '-q');
    write(root, 'sub/file.txt', 'x\n');
    expect(await bash(verifier, exec, root, 'node --test')).toBeUndefined();
    expect(notices(events)[0]).toMatch(
      /^this test run is not counted: could not hash the worktree \(.*does not have a commit checked out/s,
    );
    const v = await verifier.evaluate();
    expect(v.gates.find((g) => g.name === 'tests-fresh')?.detail).toMatch(
      /^could not hash the worktree: .*remove nested git repositories/s,
    );
    expect(v.gates.find((g) => g.name === 'assertions-kept')?.detail).toContain('could not diff the worktree');
    const final = await verifier.finalCheck();
    // No commit can be written from this worktree either: the final run has unknown counts and says why.
    expect(failed(final.gates)).toEqual(['tests-ran', 'tests-passed', 'tests-fresh', 'assertions-kept', 'test-config-kept']);
  });

  const extraTest = "import { test } from 'node:test';\ntest('fixture-driven', () => {});\n";
  /** A passing base test deleted (a file under the test folders); the final check after it. */
  const deleteExtra = async (yaml: string) => {
    const { root, verifier, exec, events } = await setup(yaml, { ...files, 'test/fixtures/extra.test.mjs': extraTest });
    expect(await bash(verifier, exec, root, 'node --test')).toMatchObject({ counts: { passed: 3 } });
    rmSync(join(root, 'test/fixtures/extra.test.mjs'));
    return { final: await verifier.finalCheck(), events };
  };

  it('verifier - a deleted base test (tests-ran counts fewer than the earlier full run) is decided by the kept run: listed as a deleted changed expectation', async () => {
    const { final, events } = await deleteExtra('test:\n  command: node --test\n');
    // tests-ran, tests-kept and assertions-kept saw the test go: early feedback; the base's own tests
    // (the kept run, the file put back) pass on the code, and the deleted test is listed for review.
    expect(failed(final.gates)).toEqual([]);
    const gate = (name: string) => final.gates.find((g) => g.name === name)?.detail ?? '';
    expect(gate('tests-ran')).toContain('early feedback only');
    expect(gate('tests-ran')).toContain('2 test(s) executed by `node --test`, fewer than the 3 an earlier `node --test` run executed');
    expect(gate('tests-kept')).toContain('fixture-driven');
    expect(gate('tests-kept-base')).toContain('1 were deleted');
    const diff = events.find((e) => e.type === 'differential');
    expect(diff?.type === 'differential' && diff.changedExpectations).toEqual([
      expect.objectContaining({ test: 'fixture-driven', kind: 'deleted', outcome: 'passed', now: 'none (deleted)' }),
    ]);
  });

  it('verifier - the same deletion with gates.changed_tests: fail fails tests-kept-base, naming the test', async () => {
    const { final } = await deleteExtra('test:\n  command: node --test\ngates:\n  changed_tests: fail\n');
    expect(failed(final.gates)).toEqual(['tests-kept-base']);
    expect(final.message).toContain('fixture-driven');
  });

  it('verifier - baselineExecuted raises the bar for tests-ran', async () => {
    const { verifier } = await setup('test:\n  command: node --test\n', files, 'off', () => ({ baselineExecuted: 3 }));
    const final = await verifier.finalCheck();
    expect(failed(final.gates)).toEqual(['tests-ran']);
    expect(final.message).toContain('fewer than the 3 `node --test` executed on the base commit');
  });

  it('verifier - a changed test script fails test-config-kept', async () => {
    const { root, verifier } = await setup('test:\n  command: npm test\n', {
      ...files,
      'package.json': '{"scripts":{"test":"node --test"}}\n',
    });
    write(root, 'package.json', '{"scripts":{"test":"node --test test/none"}}\n');
    const v = await verifier.evaluate();
    expect(v.gates.find((g) => g.name === 'test-config-kept')).toMatchObject({
      passed: false,
      detail: expect.stringContaining('package.json: scripts.test changed'),
    });
  });
});
