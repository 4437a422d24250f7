/**
 * Gate tests-not-fewer through the verifier's final check (real git, real mocha runs in clean
 * checkouts): a change that makes the final run execute fewer of the base commit's tests than the base
 * did is not verified, even where the kept run (which puts the base's runner configuration back) would pass;
 * a deleted test file is the kept run's to judge, not this gate's.
 */
import { rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { RunEventInput } from '../../src/agent/events.js';
import { createVerifier } from '../../src/agent/verification/verifier.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { silentLogger } from '../../src/log.js';
import { runSettingsOf } from '../../src/run/run-settings.js';
import { noHooks } from '../fakes/agent-stubs.js';
import { makeExec } from '../hooks/helpers.js';
import { tempDir } from '../kit/temp.js';
import { makeRepo, write } from './git-repo.js';

const BUGGY = 'export const add = (a, b) => a - b;\nexport const sub = (a, b) => a - b;\n';
const FIXED = 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n';
const ADD_TEST = `import assert from 'node:assert';
import { add } from '../src/math.mjs';
it('adds', () => { assert.strictEqual(add(1, 2), 3); });
it('adds negatives', () => { assert.strictEqual(add(-1, -2), -3); });
`;
const SUB_TEST = `import assert from 'node:assert';
import { sub } from '../src/math.mjs';
it('subtracts', () => { assert.strictEqual(sub(3, 2), 1); });
it('subtracts below zero', () => { assert.strictEqual(sub(1, 2), -1); });
`;
const FILES = {
  '.gitignore': 'node_modules\n',
  'package.json': JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'mocha' } }),
  '.mocharc.json': JSON.stringify({ spec: ['test/*.test.mjs'] }),
  'src/math.mjs': BUGGY,
  'test/add.test.mjs': ADD_TEST,
  'test/sub.test.mjs': SUB_TEST,
};

describe('gate tests-not-fewer at the final check', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });

  async function finalCheckAfter(change: (root: string) => void) {
    const { root, baseSha } = makeRepo(FILES);
    symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
    const { exec, tmp, dispose } = await makeExec(root, 'off');
    disposers.push(dispose);
    const events: RunEventInput[] = [];
    const verifier = createVerifier({
      root,
      runDir: tempDir('proofpr-rundir-'),
      settings: runSettingsOf(parseRepoConfig('test:\n  command: npm test\n')),
      exec,
      baseSha,
      hooks: noHooks,
      onEvent: (e) => events.push(e),
      logger: silentLogger,
      scratchDir: tmp,
    });
    change(root);
    return { final: await verifier.finalCheck(), events };
  }

  const gate = (gates: ReadonlyArray<{ name: string; passed: boolean; detail: string }>) => gates.find((g) => g.name === 'tests-not-fewer');

  it('a fix that also narrows the runner config (sub.test.mjs no longer runs) is not verified: the gate names both counts and the lost tests', async () => {
    const { final, events } = await finalCheckAfter((root) => {
      write(root, 'src/math.mjs', FIXED);
      write(root, '.mocharc.json', JSON.stringify({ spec: ['test/add.test.mjs'] }));
    });
    expect(final.ok).toBe(false);
    // The only hard failure: the others are early feedback that the kept run (the base's config put back,
    // every base test passing) decides: without this gate the same final check passes (the run is verified).
    const soft = new Set(['tests-ran', 'tests-kept', 'test-config-kept', 'assertions-kept']);
    expect(final.gates.filter((x) => !x.passed && !soft.has(x.name)).map((x) => x.name)).toEqual(['tests-not-fewer']);
    const g = gate(final.gates);
    expect(g?.passed).toBe(false);
    expect(g?.detail).toContain(
      '`npm test` executed 2 test(s) in the final run of the commit, 2 fewer than the 4 it executed on the base commit',
    );
    expect(g?.detail).toContain('test/sub.test.mjs > subtracts, test/sub.test.mjs > subtracts below zero did not run');
    // The evidence has both runs with their counts.
    const runs = events.flatMap((e) => (e.type === 'test_run' ? [e.run] : []));
    expect(runs.find((r) => r.kind === 'baseline')?.counts).toMatchObject({ passed: 2, failed: 2 });
    expect(runs.find((r) => r.kind === 'final')?.counts).toMatchObject({ passed: 2, failed: 0 });
    expect(runs.find((r) => r.kind === 'final')?.countCheck).toEqual([expect.objectContaining({ runner: 'mocha', agree: true })]);
  });

  it('the fix alone: as many tests as the base, the gate passes and the run is verified', async () => {
    const { final } = await finalCheckAfter((root) => write(root, 'src/math.mjs', FIXED));
    expect(gate(final.gates)).toMatchObject({ passed: true, detail: '`npm test` executed 4 test(s) on the commit, 4 on the base commit' });
    expect(final.ok).toBe(true);
  });

  it('a deleted test file is not this gate’s to judge: fewer tests, accounted for by the deletion', async () => {
    const { final } = await finalCheckAfter((root) => {
      write(root, 'src/math.mjs', FIXED);
      rmSync(join(root, 'test/sub.test.mjs'));
    });
    expect(gate(final.gates)?.passed).toBe(true);
    expect(gate(final.gates)?.detail).toContain('2 base test(s) whose file the change deleted or edited are gone');
  });
});
