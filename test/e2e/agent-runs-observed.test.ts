/**
 * The agent's own test runs are observed like the harness's (same per-test ids), so red→green works
 * with gates.final_run off; and an unverified run always ends with one counted harness run of its
 * final tree, so the comment can say exactly which tests fail.
 */
import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { bash, demoFix, edit, MEDIAN_FIX, read, said } from '../kit/e2e-script.js';
import { demoConfig, git, runScripted } from './helpers.js';

/** A home-made check script: unittest's summary lines, no per-test name anywhere in its output. */
const CHECK = `import { median, mean } from './src/stats.js';
const cases = [() => median([10, 9, 2]) === 9, () => median([1, 2, 3, 4]) === 2.5, () => mean([1, 2, 3]) === 2];
const failed = cases.filter((c) => !c()).length;
console.log('Ran ' + cases.length + ' tests in 0.001s\\n\\n' + (failed ? 'FAILED (failures=' + failed + ')' : 'OK'));
process.exit(failed ? 1 : 0);
`;

const done = said('Done.');

/** The run options for a repository whose test command is the check script (red→green on), with more `gates:` lines. */
const withCheckScript = (gates = '') => ({
  config: parseRepoConfig(
    `test:\n  command: node check.mjs\npermissions:\n  allow: ["Bash(node check.mjs)"]\ngates:\n  red_green: true\n${gates}`,
  ),
  prepare: (repo: string) => {
    writeFileSync(join(repo, 'check.mjs'), CHECK);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'a check script']);
    return {};
  },
});

describe('agent runs observed, closing evidence', () => {
  it('red→green with final_run: false - the agent’s run carries per-test ids, the base’s failing test passes there: verified', async () => {
    const { res } = await runScripted(demoFix('node --test', 'Done.'), {
      config: demoConfig('gates:\n  final_run: false\n  red_green: true\n'),
    });
    const agentRun = res.evidence.testRuns.find((r) => r.by === 'agent');
    expect(agentRun?.tests?.map((t) => t.id)).toContain('median of numbers with different digit counts');
    expect(agentRun?.calls?.[0]).toMatchObject({ runner: 'node-test' });
    expect(res.evidence.gates.find((g) => g.name === 'red-green')).toMatchObject({ passed: true });
    expect(res.evidence.verdict).toBe('verified');
  });

  it('red→green on a base whose output names no test (summary lines only): decided by its counts, an honest fix is verified', async () => {
    const { res } = await runScripted(demoFix('node check.mjs', 'Done.'), withCheckScript());
    const base = res.evidence.testRuns.find((r) => r.kind === 'baseline');
    expect(base?.counts).toMatchObject({ passed: 2, failed: 1 });
    expect(base?.tests ?? []).toHaveLength(0);
    const gate = res.evidence.gates.find((g) => g.name === 'red-green');
    expect(gate).toMatchObject({ passed: true });
    expect(gate?.detail).toMatch(/1 test\(s\) failed on the base commit .* none fails now/);
    expect(res.evidence.verdict).toBe('verified');
  });

  it('red→green by counts needs as many tests as the base ran: dropping the failing case from the check script proves nothing', async () => {
    const drop = edit('check.mjs', '() => median([10, 9, 2]) === 9, ', '');
    const { res } = await runScripted(
      [read('check.mjs'), drop, bash('node check.mjs'), done, done],
      withCheckScript('  max_stop_blocks: 1\n'),
    );
    const final = res.evidence.testRuns.find((r) => r.by === 'harness' && r.kind === 'final');
    expect(final?.counts).toMatchObject({ passed: 2, failed: 0 });
    expect(res.evidence.gates.find((g) => g.name === 'red-green')).toMatchObject({ passed: false });
    expect(res.evidence.verdict).toBe('unverified');
  });

  it('an unverified run (no test run, stop blocks spent, final_run off) still ends with a counted harness run of its final tree', async () => {
    const { res } = await runScripted([read('src/stats.js'), MEDIAN_FIX, done, done], {
      config: demoConfig('gates:\n  final_run: false\n  max_stop_blocks: 1\n'),
    });
    expect(res.evidence.verdict).toBe('unverified');
    const closing = res.evidence.testRuns.filter((r) => r.by === 'harness' && r.kind === 'final');
    expect(closing).toHaveLength(1);
    expect(closing[0]?.counts).toMatchObject({ passed: 4, failed: 0 });
    expect(closing[0]?.treeHash).toBe(res.evidence.finalTreeHash ?? closing[0]?.treeHash);
  });
});
