/**
 * Counts you can audit, end to end (issue 38): a run whose count disagrees with the runner's own printed
 * summary is not trusted. Through runTask on a committed repository whose `tap` prints one leaf test and a
 * closing `# { total: 3, pass: 3 }`: readiness treats the count as unreadable (the run ends unverified with
 * no model request), and evidence.json's baseline run names both counts in `countCheck` and its note.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Evidence } from '../../src/agent/evidence/types.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { said } from '../kit/e2e-script.js';
import { repoWith, runOn } from '../run/readiness-fixtures.js';

const FAKE_TAP = `#!/usr/bin/env node
console.log(['TAP version 14', '1..1', '# Subtest: test/a.js', '    ok 1 - adds', '    1..1', 'ok 1 - test/a.js', '', '# { total: 3, pass: 3 }'].join('\\n'));
`;

describe('a count that disagrees with the runner’s own summary (e2e)', () => {
  it('ends the run before the model, unverified; the evidence names the harness’s count and the summary’s', async () => {
    const { dir, work } = repoWith({
      demo: false,
      files: {
        // tap's own entry, committed (so the clean checkout has it), run by node: no exec bit needed.
        'package.json': JSON.stringify({ name: 'p', scripts: { test: 'node node_modules/tap/bin/run.js' } }),
        'node_modules/tap/bin/run.js': FAKE_TAP,
      },
    });
    const { res, model } = await runOn(dir, work, [said('nothing')], parseRepoConfig('test:\n  command: npm test\n'));
    expect(res.exitCode).toBe(3);
    expect(res.evidence.verdict).toBe('unverified');
    expect(model.requests).toHaveLength(0);
    expect(res.evidence.reason).toContain('its test counts could not be read');
    expect(res.evidence.reason).toContain('node-tap was counted 1 passed, 0 failed, 0 skipped but its own summary says 3 passed');
    const evidence = JSON.parse(readFileSync(join(res.runDir, 'evidence.json'), 'utf8')) as Evidence;
    const baseline = evidence.testRuns.find((r) => r.kind === 'baseline');
    expect(baseline?.counts).toBeNull();
    expect(baseline?.countCheck).toEqual([
      {
        runner: 'node-tap',
        counted: { passed: 1, failed: 0, skipped: 0, total: 1 },
        summary: { passed: 3, failed: 0, skipped: 0, total: 3 },
        agree: false,
      },
    ]);
  });
});
