/** The backtest's table (Markdown, for a terminal and a PR), the misses with their fixes, and the totals. */
import type { BacktestCase, BacktestReport, CaseRun } from './types.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const pct = (r: number | undefined): string => (r === undefined ? 'n/a' : `${Math.round(100 * r)}%`);
const counts = (c: BacktestCase): string => `${c.fix.counts?.total ?? '?'} / ${c.runnerCount ?? '?'}`;
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

function row(c: BacktestCase, withAgent: boolean): string {
  const cells = [
    c.commit.slice(0, 7),
    cell(c.subject.slice(0, 60)),
    c.fix.verdict,
    c.testOnly.verdict,
    counts(c),
    `${secs(c.fix.wallMs)} / ${secs(c.testOnly.wallMs)}`,
  ];
  if (withAgent && c.agent)
    cells.push(`${c.agent.verdict}, ${c.agent.resolved ? 'resolved' : 'not resolved'}${c.agent.agreed ? '' : ' ✗'}`);
  return `| ${cells.join(' | ')} |`;
}

function misses(cases: readonly BacktestCase[]): string[] {
  const lines: string[] = [];
  const one = (c: BacktestCase, label: string, r: CaseRun | undefined) => {
    if (r?.blocked) lines.push(`- ${c.commit.slice(0, 7)} ${label}: ${cell(r.blocked.what)}\n  fix: ${r.blocked.fix}`);
  };
  for (const c of cases) {
    one(c, 'fix', c.fix);
    one(c, 'test only', c.testOnly);
    one(c, 'agent', c.agent);
  }
  return lines;
}

function totals(r: BacktestReport): string[] {
  const s = r.summary;
  const lines = [
    `verified fixes: ${s.fixVerified}/${s.cases} (${pct(s.fixVerifiedRate)}); unverified test-only changes: ${s.testOnlyUnverified}/${s.cases} (${pct(s.testOnlyUnverifiedRate)}); counts equal to the runner's own: ${s.countsEqual}/${s.cases}`,
    `median wall time per run: ${secs(s.medianRunMs)}; estimated model cost per run (${r.estimate.model}, ${r.estimate.trackedFiles} files, ${Math.round(r.estimate.trackedBytes / 1024)} KiB): $${r.estimate.usdPerRun.toFixed(2)}`,
  ];
  if (s.resolved !== undefined) {
    const per = s.costPerResolvedUsd === null || s.costPerResolvedUsd === undefined ? 'n/a' : `$${s.costPerResolvedUsd.toFixed(2)}`;
    lines.push(
      `agent (--model): resolved ${s.resolved}/${s.cases} (${pct(s.resolveRate)}); verified but not resolved: ${s.verifiedNotResolved ?? 0} (${pct(s.verifiedNotResolvedRate)}); cost per resolved fix: ${per}`,
    );
  }
  return lines;
}

export function renderTable(r: BacktestReport): string {
  const withAgent = r.cases.some((c) => c.agent);
  const head = [
    'commit',
    'subject',
    'fix',
    'test only',
    'tests: proofpr / runner',
    'wall: fix / test only',
    ...(withAgent ? ['agent'] : []),
  ];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- |').join('')}`, ...r.cases.map((c) => row(c, withAgent))];
  if (!r.cases.length)
    out.push(`(no case: none of the ${r.skipped.length} commits walked qualified; each one's reason is under "skipped" in backtest.json)`);
  const m = misses(r.cases);
  if (m.length) out.push('', 'misses:', ...m);
  out.push('', ...totals(r));
  return `${out.join('\n')}\n`;
}
