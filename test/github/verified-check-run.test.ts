/**
 * The check run `proofpr/verified` (CONTRACT §11): named so branch protection can require it, concluded
 * from the verdict, and its output carries the verdict, the final run's counts, the failed gates, the
 * changed expectations, the untested hunks and the flaky tests, each section only when the evidence has it.
 */
import { describe, expect, it } from '@jest/globals';
import { VERIFIED_CHECK_NAME, verifiedCheckRunFor } from '../../src/github/check-run.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

function evidence(patch: Partial<Evidence>): Evidence {
  const ts = '2026-12-06T10:00:00.000Z';
  return {
    version: 1,
    runId: 'r',
    startedAt: ts,
    endedAt: ts,
    verdict: 'verified',
    reason: 'every gate passed on the head',
    task: { kind: 'prompt', title: 'Fix add' },
    repo: { baseSha: 'a'.repeat(40), branch: 'fix-add', headSha: 'b'.repeat(40) },
    gates: [{ name: 'tests-passed', passed: true, detail: 'ok' }],
    testRuns: [
      {
        command: 'node --test',
        exitCode: 0,
        startedAt: ts,
        endedAt: ts,
        treeHash: 't',
        counts: { passed: 4, failed: 0, skipped: 1, total: 5 },
        source: 'report',
        by: 'harness',
        kind: 'final',
      },
    ],
    filesChanged: [],
    toolCalls: {},
    denied: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
    ...patch,
  } as Evidence;
}

describe('check run proofpr/verified', () => {
  it('verified check - success with the counts, and no empty sections', () => {
    const c = verifiedCheckRunFor(evidence({}), '## proofpr: verified\n');
    expect(c.name).toBe(VERIFIED_CHECK_NAME);
    expect(VERIFIED_CHECK_NAME).toBe('proofpr/verified');
    expect(c.conclusion).toBe('success');
    expect(c.title).toBe('verified: 1/1 gates passed');
    expect(c.summary).toContain('Tests: 4 passed, 0 failed, 1 skipped of 5 (the final run on the head).');
    expect(c.summary).not.toMatch(/Untested hunks|Flaky tests|Changed expectations|Gates that failed/);
    expect(c.summary).toContain('<summary>Full evidence</summary>');
  });

  it('verified check - failure lists the failed gates, changed expectations, untested hunks and flaky tests', () => {
    const c = verifiedCheckRunFor(
      evidence({
        verdict: 'unverified',
        reason: 'the final check failed: red-green',
        gates: [{ name: 'red-green', passed: false, detail: 'no test fails without the change\nmore' }],
        changedExpectations: [{ test: 'test/a.test.js > keeps order', base: 'x', now: 'y', failure: 'expected 1', kind: 'deleted' }],
        untestedHunks: [{ file: 'src/math.js', startLine: 3, endLine: 5 }],
        flaky: [{ test: 'test/net.test.js > retries', runs: 3, failures: 1 }],
      }),
      'body',
    );
    expect(c.conclusion).toBe('failure');
    expect(c.summary).toContain('- `red-green`: no test fails without the change');
    expect(c.summary).toContain('- `test/a.test.js > keeps order` (deleted)');
    expect(c.summary).toContain('- `src/math.js` lines 3–5');
    expect(c.summary).toContain('- `test/net.test.js > retries` (1 of 3 runs failed)');
  });

  it('verified check - the output stays under the Checks API cap', () => {
    const c = verifiedCheckRunFor(evidence({}), 'x'.repeat(100_000));
    expect(c.summary.length).toBeLessThanOrEqual(65535);
    expect(c.summary).toContain('…(cut)');
  });
});
