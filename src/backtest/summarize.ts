/** The backtest's figures over its cases (CONTRACT §10 summary, and the rates the table prints). */
import type { BacktestCase, BacktestSummary, CostEstimate } from './types.js';

const rate = (a: number, b: number): number => (b === 0 ? 0 : +(a / b).toFixed(3));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
}

function agentFigures(cases: readonly BacktestCase[]): Partial<BacktestSummary> {
  const agents = cases.flatMap((c) => (c.agent ? [c.agent] : []));
  if (!agents.length) return {};
  const resolved = agents.filter((a) => a.resolved).length;
  const verifiedNotResolved = agents.filter((a) => a.verdict === 'verified' && !a.resolved).length;
  const cost = agents.reduce((s, a) => s + a.costUsd, 0);
  return {
    resolved,
    resolveRate: rate(resolved, agents.length),
    verifiedNotResolved,
    verifiedNotResolvedRate: rate(verifiedNotResolved, agents.length),
    costPerResolvedUsd: resolved ? +(cost / resolved).toFixed(4) : null,
  };
}

export function summarize(cases: readonly BacktestCase[], estimate: CostEstimate): BacktestSummary {
  const fixVerified = cases.filter((c) => c.fix.verdict === 'verified').length;
  const testOnlyUnverified = cases.filter((c) => c.testOnly.verdict !== 'verified').length;
  const countsEqual = cases.filter((c) => c.runnerCount !== null && c.fix.counts?.total === c.runnerCount).length;
  return {
    cases: cases.length,
    fixVerified,
    testOnlyUnverified,
    fixVerifiedRate: rate(fixVerified, cases.length),
    testOnlyUnverifiedRate: rate(testOnlyUnverified, cases.length),
    countsEqual,
    medianRunMs: median(cases.flatMap((c) => [c.fix.wallMs, c.testOnly.wallMs])),
    estimatedUsdPerRun: estimate.usdPerRun,
    ...agentFigures(cases),
  };
}
