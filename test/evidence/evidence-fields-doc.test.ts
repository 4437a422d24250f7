/**
 * Issue 16, "the evidence schema documents the new fields": every field of the evidence object and of a
 * test run is either in CONTRACT §5 (the contract's list below) or named in docs/verification.md (its evidence
 * section). The maps are exhaustive over the TypeScript types, so a new field does not compile here
 * until it is listed, and then it must be documented.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import type { Evidence } from '../../src/agent/evidence/types.js';
import type { TestRun } from '../../src/agent/events.js';

type Where = 'contract' | 'readme';

const EVIDENCE: Record<keyof Evidence, Where> = {
  version: 'contract',
  runId: 'contract',
  startedAt: 'contract',
  endedAt: 'contract',
  verdict: 'contract',
  reason: 'contract',
  task: 'contract',
  repo: 'contract',
  gates: 'contract',
  testRuns: 'contract',
  lastEditAt: 'contract',
  finalTreeHash: 'contract',
  filesChanged: 'contract',
  toolCalls: 'contract',
  denied: 'contract',
  usage: 'contract',
  pr: 'contract',
  ci: 'contract',
  sandbox: 'contract',
  sandboxReason: 'contract',
  test: 'contract',
  setup: 'readme',
  baseline: 'readme',
  redGreen: 'readme',
  hookErrors: 'readme',
  model: 'readme',
  secondLook: 'readme',
  differential: 'contract',
  changedExpectations: 'contract',
  wipRef: 'contract',
  images: 'contract',
  leftOut: 'readme',
  masked: 'contract',
  maskedReads: 'readme',
  notRun: 'contract',
  checksPassed: 'readme',
  subagents: 'contract',
  infrastructureChanges: 'contract',
  flaky: 'contract',
  untestedHunks: 'contract',
  untestedHunksScope: 'readme',
  fix: 'contract',
};

const TEST_RUN: Record<keyof TestRun, Where> = {
  command: 'contract',
  exitCode: 'contract',
  startedAt: 'contract',
  endedAt: 'contract',
  treeHash: 'contract',
  counts: 'contract',
  source: 'contract',
  reportPath: 'contract',
  tests: 'contract',
  runner: 'readme',
  by: 'readme',
  outputPath: 'readme',
  commit: 'readme',
  kind: 'readme',
  fixed: 'readme',
  note: 'readme',
  maskedReads: 'readme',
  calls: 'readme',
  countCheck: 'readme',
  flaky: 'readme',
};

const readme = readFileSync('docs/verification.md', 'utf8');
/** Every page of the documentation, for fields documented with their own feature. */
const allDocs = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const start = readme.indexOf('### Evidence fields added by issue 16');
const section = readme.slice(start, readme.indexOf('\n## ', start));
/** Fields documented with their own feature, elsewhere in the docs. */
const ELSEWHERE = new Set(['secondLook']);

describe('evidence fields are documented', () => {
  it.each([...Object.entries(EVIDENCE), ...Object.entries(TEST_RUN)].filter(([, w]) => w === 'readme').map(([k]) => k))(
    'evidence doc - `%s` is named in docs/verification.md',
    (key) => {
      expect(ELSEWHERE.has(key) ? allDocs : section).toMatch(new RegExp('`' + key + '[`:]'));
    },
  );

  it('evidence doc - docs/verification.md has the section listing the fields added by issue 16', () => {
    expect(start).toBeGreaterThan(0);
    expect(section).toContain('(all optional)');
  });
});
