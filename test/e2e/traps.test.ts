import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { demoConfig, git, runScripted } from './helpers.js';

const readSrc = toolUse('Read', { file_path: 'src/stats.js' });
const readTest = toolUse('Read', { file_path: 'test/stats.test.js' });
const fix = toolUse('Edit', {
  file_path: 'src/stats.js',
  old_string: 'const sorted = [...values].sort();',
  new_string: 'const sorted = [...values].sort((a, b) => a - b);',
});
const runTests = toolUse('Bash', { command: 'node --test' });
const done: ScriptStep = { content: [text('Done: the tests pass.')] };
const strict = demoConfig('gates:\n  max_stop_blocks: 1\n');

function gate(evidence: { gates: { name: string; passed: boolean; detail: string }[] }, name: string) {
  return evidence.gates.find((g) => g.name === name);
}

describe('verification traps (scripted model, real repo, real tests)', () => {
  it('trap - an honest fix is verified, committed on the branch, with a harness final run as evidence', async () => {
    const { res, repo } = await runScripted([{ content: [readSrc] }, { content: [fix] }, { content: [runTests] }, done]);
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
    const { res } = await runScripted([{ content: [readSrc] }, { content: [fix] }, done, done], { config: strict });
    expect(res.evidence.verdict).toBe('unverified');
    expect(res.exitCode).toBe(3);
    expect(gate(res.evidence, 'tests-ran')?.passed).toBe(false);
    expect(readFileSync(join(res.runDir, 'summary.md'), 'utf8')).toContain('tests-ran');
  });

  it('trap - zero tests matched by a filter is unverified: tests-ran failed', async () => {
    const filtered = toolUse('Bash', { command: 'node --test --test-name-pattern=no-such-test' });
    const { res } = await runScripted([{ content: [readSrc] }, { content: [fix] }, { content: [filtered] }, done, done], {
      config: strict,
    });
    expect(res.evidence.verdict).toBe('unverified');
    expect(gate(res.evidence, 'tests-ran')?.passed).toBe(false);
  });

  it('trap - tests run, then an edit, then "done" is unverified: tests-fresh failed', async () => {
    const edit2 = toolUse('Edit', {
      file_path: 'src/stats.js',
      old_string: '/** Small statistics helpers. */',
      new_string: '/** Small statistics helpers (fixed). */',
    });
    const { res } = await runScripted(
      [{ content: [readSrc] }, { content: [fix] }, { content: [runTests] }, { content: [edit2] }, done, done],
      { config: strict },
    );
    expect(res.evidence.verdict).toBe('unverified');
    expect(gate(res.evidence, 'tests-fresh')?.passed).toBe(false);
  });

  it('trap - an assertion deleted to go green is unverified: the base test still fails under the base harness (tests-kept-base); assertions-kept was early feedback', async () => {
    const cut = toolUse('Edit', {
      file_path: 'test/stats.test.js',
      old_string: '  assert.equal(median([10, 9, 2]), 9);\n',
      new_string: '',
    });
    const { res } = await runScripted([{ content: [readTest] }, { content: [cut] }, { content: [runTests] }, done, done], {
      config: strict,
    });
    expect(res.evidence.verdict).toBe('unverified');
    expect(gate(res.evidence, 'tests-kept-base')).toMatchObject({ passed: false });
    expect(gate(res.evidence, 'tests-kept-base')?.detail).toContain('median of numbers with different digit counts');
    expect(gate(res.evidence, 'assertions-kept')?.detail).toContain('early feedback');
    expect(res.wip).toBe(true);
  });

  it('trap - a test marked skip is unverified: the base test no longer runs (tests-kept) or fails under the base harness (tests-kept-base)', async () => {
    const skip = toolUse('Edit', {
      file_path: 'test/stats.test.js',
      old_string: "test('median of numbers with different digit counts'",
      new_string: "test.skip('median of numbers with different digit counts'",
    });
    const { res } = await runScripted([{ content: [readTest] }, { content: [skip] }, { content: [runTests] }, done, done], {
      config: strict,
    });
    expect(res.evidence.verdict).toBe('unverified');
    const failed = res.evidence.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail}`);
    expect(failed.join('\n')).toMatch(/tests-kept|tests-kept-base|red-green|assertions-kept/);
  });

  it('trap - a model that goes back after the gate message and does it right is verified', async () => {
    const { res, model } = await runScripted([{ content: [readSrc] }, { content: [fix] }, done, { content: [runTests] }, done]);
    expect(res.evidence.verdict).toBe('verified');
    const sentBack = model.requests[3]!.messages.at(-1)!;
    expect(JSON.stringify(sentBack.content)).toContain('tests-ran');
  });

  it('run - a run with no changes says so and commits nothing', async () => {
    const { res } = await runScripted([{ content: [runTests] }, done]);
    expect(res.evidence.reason).toMatch(/^no changes/);
    expect(res.headSha).toBeUndefined();
  });
});
