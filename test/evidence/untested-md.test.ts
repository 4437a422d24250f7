import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

const verified = (): Evidence => JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/runs', 'verified', 'evidence.json'), 'utf8'));

describe('summary.md: untested hunks and flaky tests', () => {
  it('summary - the untested hunks are listed under "No test exercises these changes", the flaky tests under their own heading', () => {
    const md = renderSummaryMd({
      ...verified(),
      untestedHunks: [
        { file: 'src/math.mjs', startLine: 11, endLine: 13 },
        { file: 'src/b.mjs', startLine: 4, endLine: 4 },
      ],
      flaky: [{ test: 'test/a.test.mjs > sometimes', runs: 2, failures: 1 }],
    });
    expect(md).toContain('### No test exercises these changes');
    expect(md).toContain('- `src/math.mjs` lines 11–13');
    expect(md).toContain('- `src/b.mjs` lines 4\n');
    expect(md).toContain('### Flaky tests');
    expect(md).toContain('- `test/a.test.mjs > sometimes`: failed 1 of 2 runs of the same tree');
  });

  it('summary - neither heading without the fields', () => {
    const md = renderSummaryMd(verified());
    expect(md).not.toContain('No test exercises');
    expect(md).not.toContain('### Flaky tests');
  });
});
