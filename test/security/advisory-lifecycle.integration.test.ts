/**
 * The last case of test/evidence/advisory-gates.test.ts (issue 38): lifecycle-scripts allowed by
 * permissions.writable found a changed lifecycle script and lets the run through, so it is advisory and
 * the PR body shows it as such, never as passed. First try (before the mechanism): not caught.
 */
import { describe, expect, it } from '@jest/globals';
import { protectedChangesNow } from '../../src/agent/verification/gates/protected-changes.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';
import { tempDir } from '../kit/temp.js';
import { commitAll, git, writeFiles } from '../kit/e2e-repo.js';

describe('advisory gates - lifecycle scripts allowed by the config', () => {
  it('lifecycle-scripts allowed by permissions.writable: passes, advisory, rendered ⚠️ and listed as found', async () => {
    const root = tempDir('proofpr-advisory-lifecycle-');
    writeFiles(root, { 'package.json': JSON.stringify({ name: 'x', scripts: { test: 'node --test' } }), 'src/a.js': '1\n' });
    commitAll(root);
    const base = git(root, ['rev-parse', 'HEAD']).trim();
    writeFiles(root, { 'package.json': JSON.stringify({ name: 'x', scripts: { test: 'node --test', postinstall: 'node setup.js' } }) });
    const g = (await protectedChangesNow(root, base, { writable: ['package.json#scripts'] })).find((x) => x.name === 'lifecycle-scripts');
    expect(g).toMatchObject({ passed: true, advisory: true });
    const ev = {
      version: 1,
      runId: 'r',
      startedAt: '',
      endedAt: '',
      verdict: 'verified',
      reason: 'r',
      task: { kind: 'prompt', title: 't' },
      repo: { baseSha: base, branch: 'x' },
      gates: [g!],
      testRuns: [],
      filesChanged: [],
      toolCalls: {},
      denied: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
    } satisfies Evidence;
    const md = renderSummaryMd(ev);
    expect(md).toContain('| ⚠️ advisory | lifecycle-scripts |');
    expect(md).toContain('### Found, not blocking (advisory)');
    expect(md).toContain('_Allowed by `permissions.writable`._');
  });
});
