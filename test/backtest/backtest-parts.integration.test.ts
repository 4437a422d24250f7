import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixBlocker, testOnlyBlocker } from '../../src/backtest/blocker.js';
import { finalRunTail } from '../../src/backtest/final-run-tail.js';
import { estimateFromSize } from '../../src/backtest/cost-estimate.js';
import { pathsRule } from '../../src/backtest/pick-candidates.js';
import { startReplayServer } from '../../src/backtest/replay-server.js';
import { replayReply, replaySteps } from '../../src/backtest/replay.js';
import { renderTable } from '../../src/backtest/render-table.js';
import { summarize } from '../../src/backtest/summarize.js';
import type { BacktestCase, BacktestReport, CaseRun } from '../../src/backtest/types.js';
import { tempDir } from '../kit/temp.js';

const run = (verdict: string, total: number | null, extra: Partial<CaseRun> = {}): CaseRun => ({
  verdict,
  reason: verdict,
  counts: total === null ? null : { passed: total, total },
  failedGates: [],
  wallMs: 1000,
  testMs: 400,
  runDir: 'runs/x',
  ...extra,
});

const aCase = (commit: string, fix: CaseRun, testOnly: CaseRun, extra: Partial<BacktestCase> = {}): BacktestCase => ({
  commit,
  parent: 'p'.repeat(40),
  subject: `fix ${commit}`,
  code: ['src/a.js'],
  tests: ['test/a.test.js'],
  testCommand: 'npm test',
  runnerCount: 4,
  fix,
  testOnly,
  ...extra,
});

describe('backtest parts', () => {
  it('backtest rule - a candidate changes a test file and code outside the tests, and no dependency manifest', () => {
    expect(pathsRule(['src/a.js', 'test/a.test.js'])).toBeUndefined();
    expect(pathsRule(['lib/x.py', 'tests/test_x.py'])).toBeUndefined();
    expect(pathsRule(['src/a.js', 'README.md'])).toBe('changes no test file');
    expect(pathsRule(['test/a.test.js', 'README.md'])).toBe('changes no code outside the tests');
    expect(pathsRule(['src/a.js', 'test/a.test.js', 'package-lock.json'])).toMatch(
      /dependency manifest or lock file \(package-lock\.json\)/,
    );
  });

  it('backtest blocker - each miss names what blocked it and the config key that fixes it', () => {
    expect(fixBlocker('verified', 'ok', [])).toBeUndefined();
    expect(fixBlocker('unverified', 'not ready: the base run could not be counted', [])?.fix).toMatch(/test\.report/);
    expect(fixBlocker('unverified', 'not ready: no test command', [])?.fix).toMatch(/test\.command/);
    expect(fixBlocker('unverified', 'a gate failed', ['tests-kept-base'])).toEqual({
      what: 'gates failed: tests-kept-base (a gate failed)',
      fix: expect.stringMatching(/gates\.changed_tests/),
    });
    expect(fixBlocker('aborted', 'budget', [])?.fix).toMatch(/max_turns/);
    expect(testOnlyBlocker('unverified', 'red')).toBeUndefined();
    expect(testOnlyBlocker('verified', 'ok')?.fix).toMatch(/test\.command/);
  });

  it("backtest blocker - an uncounted failed final run adds the last line it printed (the newest final run's file)", () => {
    const dir = tempDir('proofpr-backtest-tail-');
    expect(finalRunTail(dir)).toBeUndefined();
    mkdirSync(join(dir, 'tool-output'));
    writeFileSync(join(dir, 'tool-output', 'final-test-run-1.txt'), 'old\n');
    writeFileSync(join(dir, 'tool-output', 'final-test-run-2.txt'), "collecting\nbwrap: Can't find source path x\n\n");
    expect(finalRunTail(dir)).toBe("bwrap: Can't find source path x");
  });

  it('backtest cost - the estimate follows the documented formula', () => {
    // 400 000 bytes: R = 100 000 tokens, r = 5 000, I = 30 × 17 500 = 525 000, O = 18 000; sonnet-5 at $2 / $10.
    const e = estimateFromSize('claude-sonnet-5-5', 10, 400_000);
    expect(e.inputTokens).toBe(525_000);
    expect(e.outputTokens).toBe(18_000);
    expect(e.usdPerRun).toBeCloseTo((0.215 * 525_000 * 2 + 18_000 * 10) / 1e6, 3);
    // The reads are capped at 100 000 tokens.
    expect(estimateFromSize('claude-sonnet-5-5', 1, 1e10).inputTokens).toBe(30 * (15_000 + 50_000));
  });

  it('backtest report - rates, counts against the runner, agent figures and the table with each miss', () => {
    const ok = aCase('a'.repeat(40), run('verified', 4), run('unverified', 3), {
      agent: { ...run('verified', 5), resolved: false, agreed: false, costUsd: 0.5 },
    });
    const blocked = { what: 'not ready: uncounted', fix: 'test.report' };
    const miss = aCase('b'.repeat(40), run('unverified', null, { blocked }), run('unverified', null), {
      runnerCount: null,
      agent: { ...run('verified', 4), resolved: true, agreed: true, costUsd: 0.3 },
    });
    const estimate = estimateFromSize('claude-sonnet-5-5', 3, 3000);
    const summary = summarize([ok, miss], estimate);
    expect(summary).toMatchObject({ cases: 2, fixVerified: 1, testOnlyUnverified: 2, countsEqual: 1, fixVerifiedRate: 0.5 });
    expect(summary).toMatchObject({ resolved: 1, verifiedNotResolved: 1, resolveRate: 0.5, costPerResolvedUsd: 0.8 });
    const report: BacktestReport = {
      version: 1,
      repo: '/r',
      head: 'h',
      startedAt: '',
      endedAt: '',
      last: 2,
      cases: [ok, miss],
      skipped: [],
      estimate,
      summary,
    };
    const table = renderTable(report);
    expect(table).toContain('| aaaaaaa | fix aaaa');
    expect(table).toContain('| 4 / 4 |');
    expect(table).toContain('verified, not resolved ✗');
    expect(table).toContain('- bbbbbbb fix: not ready: uncounted\n  fix: test.report');
    expect(table).toMatch(/verified but not resolved: 1 \(50%\); cost per resolved fix: \$0\.80/);
  });

  it('backtest replay server - streams each step as the Messages API does, then text', async () => {
    const steps = replaySteps([{ path: 'a.js', before: 'x\n', after: 'y\n' }], 'npm test');
    const server = await startReplayServer((n) => replayReply(steps, n, 'done'));
    try {
      const post = async () => (await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{"stream":true}' })).text();
      const first = await post();
      expect(first).toContain('event: message_start');
      expect(first).toContain('"name":"Read"');
      expect(first).toContain('"partial_json":"{\\"file_path\\":\\"a.js\\"}"');
      expect(first).toContain('"stop_reason":"tool_use"');
      await post();
      await post();
      expect(await post()).toContain('"text":"done"');
      expect(server.requests()).toBe(4);
    } finally {
      await server.close();
    }
  });
});
