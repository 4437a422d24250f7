import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

const fixture = (name: string): Evidence =>
  JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/runs', name, 'evidence.json'), 'utf8'));

function aborted(): Evidence {
  const ev = fixture('unverified');
  return {
    ...ev,
    verdict: 'aborted',
    reason: 'The cost budget ($0.05) was spent before the work was done.',
    gates: [],
    testRuns: [],
    denied: [],
    filesChanged: [],
    task: { kind: 'sweep', sweep: 'lint', title: 'Fix lint warnings' },
  };
}

describe('renderSummaryMd', () => {
  it('summary - verified run, with a report link', () => {
    expect(renderSummaryMd(fixture('verified'), { reportUrl: 'https://example.invalid/runs/1/report.html' })).toMatchSnapshot();
  });

  it('summary - unverified run names the failed gate under what was not verified', () => {
    const md = renderSummaryMd(fixture('unverified'));
    expect(md).toMatch(/^## ⚠️ proofpr: unverified/);
    expect(md).toContain('### What was not verified and why');
    expect(md).toContain('- **assertions-kept** failed:');
    expect(md).toContain('| ❌ | assertions-kept |');
    expect(md).toMatchSnapshot();
  });

  it('summary - aborted run says nothing was proven, with the sweep line', () => {
    const md = renderSummaryMd(aborted(), { sweep: { name: 'lint', schedule: '0 3 * * 1' } });
    expect(md).toContain('The run ended **aborted** before the work could be proven');
    expect(md).toContain('The Stop gates never ran');
    expect(md).toContain('No test run was recorded.');
    expect(md).toMatchSnapshot();
  });

  it('summary - is deterministic', () => {
    expect(renderSummaryMd(fixture('verified'))).toBe(renderSummaryMd(fixture('verified')));
  });

  it('summary - escapes pipes, backticks, HTML and mentions from untrusted strings, and caps lengths', () => {
    const ev = fixture('unverified');
    ev.denied = [
      { tool: 'Bash', input: 'echo `id` | sh ' + 'x'.repeat(500), rule: 'Bash(sh:*)', reason: 'pipe | to <b>shell</b> @octocat' },
    ];
    ev.gates = [{ name: 'tests-ran|x', passed: false, detail: 'detail with | pipe and `tick` and <img src=x>' }];
    const md = renderSummaryMd(ev);
    const deniedRow = md.split('\n').find((l) => l.startsWith('| Bash |')) ?? '';
    expect(deniedRow).toContain('``echo `id` \\| sh ');
    expect(deniedRow).toContain('…``');
    expect(deniedRow.length).toBeLessThan(400);
    expect(deniedRow).toContain('pipe \\| to \\<b\\>shell\\</b\\> @\u200boctocat');
    const gateRow = md.split('\n').find((l) => l.startsWith('| ❌')) ?? '';
    expect(gateRow).toBe('| ❌ | tests-ran\\|x | detail with \\| pipe and `tick` and \\<img src=x\\> |');
    // every table row keeps its column count: no unescaped pipe inside a cell
    for (const line of md.split('\n').filter((l) => l.startsWith('|'))) {
      const cells = line.replace(/\\\|/g, '').split('|').length;
      const header = line.startsWith('| Bash') ? 6 : cells;
      expect(cells).toBe(header);
    }
  });
});
