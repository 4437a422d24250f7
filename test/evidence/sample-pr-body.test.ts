/** The sample PR body in docs/github-app.md is the real renderer's output for the fixture run (scripts/gen-sample-pr-body.mjs). */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

describe('docs sample PR body', () => {
  it('docs - the sample PR body is what renderSummaryMd renders for test/fixtures/runs/verified', () => {
    const evidence = JSON.parse(readFileSync('test/fixtures/runs/verified/evidence.json', 'utf8')) as Evidence;
    const doc = readFileSync('docs/github-app.md', 'utf8');
    const block = /<!-- sample-pr-body:start -->\n````markdown\n([\s\S]*?)\n````\n<!-- sample-pr-body:end -->/.exec(doc)?.[1];
    expect(block).toBe(`Fixes #${evidence.task.issue}\n\n${renderSummaryMd(evidence)}`.trimEnd());
    expect(block).not.toMatch(/\\`/);
  });
});
