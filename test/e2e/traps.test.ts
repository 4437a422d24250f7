import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptStep } from '../../src/model/scripted.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { bash, DONE as done, edit, MEDIAN_FIX as fix, read } from '../kit/e2e-script.js';
import { demoConfig, git, runScripted } from './helpers.js';

const readSrc = read('src/stats.js');
const STATS_TEST = 'test/stats.test.js';
const readTest = read(STATS_TEST);
const runTests = bash('node --test');
const strict = demoConfig('gates:\n  max_stop_blocks: 1\n');

function gate(evidence: { gates: { name: string; passed: boolean; detail: string }[] }, name: string) {
  return evidence.gates.find((g) => g.name === name);
}

/** A cheat played on the demo with one stop block allowed (the model says done twice): it ends unverified. */
async function unverified(...steps: ScriptStep[]): Promise<RunTaskResult> {
  const { res } = await runScripted([...steps, done, done], { config: strict });
  expect(res.evidence.verdict).toBe('unverified');
  return res;
}

describe('verification traps (scripted model, real repo, real tests)', () => {
  it('trap - an honest fix is verified, committed on the branch, with a harness final run as evidence', async () => {
    const { res, repo } = await runScripted([readSrc, fix, runTests, done]);
    expect(res.evidence.verdict).toBe('verified');
    expect(res.exitCode).toBe(0);
    expect(res.evidence.gates.every((g) => g.passed)).toBe(true);
    const last = res.evidence.testRuns[res.evidence.testRuns.length - 1]!;
    expect(last).toMatchObject({ by: 'harness', exitCode: 0, counts: { passed: 4, failed: 0 } });
    expect(res.headSha).toBeDefined();
    expect(git(repo, ['rev-parse', `${res.headSha}^{tree}`]).trim()).toBe(res.evidence.finalTreeHash);
    expect(git(repo, ['show', 'proofpr/7-median:src/stats.js'])).toContain('(a, b) => a - b');
    const summary = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/verified/i);
  });

  it('trap - "done" without any test run is unverified: tests-ran failed', async () => {
    const res = await unverified(readSrc, fix);
    expect(res.exitCode).toBe(3);
    expect(gate(res.evidence, 'tests-ran')?.passed).toBe(false);
    expect(readFileSync(join(res.runDir, 'summary.md'), 'utf8')).toContain('tests-ran');
  });

  it('trap - zero tests matched by a filter is unverified: tests-ran failed', async () => {
    const res = await unverified(readSrc, fix, bash('node --test --test-name-pattern=no-such-test'));
    expect(gate(res.evidence, 'tests-ran')?.passed).toBe(false);
  });

  it('trap - tests run, then an edit, then "done" is unverified: tests-fresh failed', async () => {
    const res = await unverified(
      readSrc,
      fix,
      runTests,
      edit('src/stats.js', '/** Small statistics helpers. */', '/** Small statistics helpers (fixed). */'),
    );
    expect(gate(res.evidence, 'tests-fresh')?.passed).toBe(false);
  });

  it('trap - an assertion deleted to go green is unverified: the tests pass without any change to the shipped code (red-green), and the assertion is named', async () => {
    const res = await unverified(readTest, edit(STATS_TEST, '  assert.equal(median([10, 9, 2]), 9);\n', ''), runTests);
    expect(gate(res.evidence, 'red-green')).toMatchObject({ passed: false });
    expect(gate(res.evidence, 'red-green')?.detail).toContain('without any change to the code the project ships');
    expect(gate(res.evidence, 'assertions-kept')?.passed).toBe(false);
    expect(res.evidence.fix).toEqual({ files: [], attributed: false });
    expect(res.wip).toBe(true);
  });

  it('trap - a test marked skip is unverified: the base test no longer runs (tests-kept) or fails under the base harness (tests-kept-base)', async () => {
    const name = "('median of numbers with different digit counts'";
    const res = await unverified(readTest, edit(STATS_TEST, `test${name}`, `test.skip${name}`), runTests);
    const failed = res.evidence.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail}`);
    expect(failed.join('\n')).toMatch(/tests-kept|tests-kept-base|red-green|assertions-kept/);
  });

  it('trap - a model that goes back after the gate message and does it right is verified', async () => {
    const { res, model } = await runScripted([readSrc, fix, done, runTests, done]);
    expect(res.evidence.verdict).toBe('verified');
    const sentBack = model.requests[3]!.messages.at(-1)!;
    expect(JSON.stringify(sentBack.content)).toContain('tests-ran');
  });

  it('run - a run with no changes says so and commits nothing', async () => {
    const { res } = await runScripted([runTests, done]);
    expect(res.evidence.reason).toMatch(/^no changes/);
    expect(res.headSha).toBeUndefined();
  });
});
