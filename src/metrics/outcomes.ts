/**
 * `/metrics` gauges of what became of the pull requests proofpr opened or verified (issue 40): one series
 * per repository, verdict and outcome (merged, reverted, closed, open), from the same table `proofpr
 * outcomes` prints. Read at scrape time from a source the host gives, at most once per `ttlMs` (the source
 * asks GitHub; a scrape must not). A source that fails leaves the last values.
 */
import { Gauge, type Registry } from 'prom-client';

/** One row of the outcomes table (github/outcomes.ts OutcomeRow has this shape). */
export interface OutcomeCounts {
  verdict: string;
  merged: number;
  closed: number;
  reverted: number;
  open: number;
}

export type OutcomesSource = () => Promise<Array<{ repository: string; rows: readonly OutcomeCounts[] }>>;

const OUTCOMES = ['merged', 'reverted', 'closed', 'open'] as const;

/** Registers `proofpr_pull_requests{repository,verdict,outcome}` on `registry`, fed by `source`. */
export function registerOutcomeGauges(
  registry: Registry,
  source: OutcomesSource,
  ttlMs = 15 * 60_000,
  now: () => number = Date.now,
): Gauge {
  let last = -Infinity;
  let pending: Promise<void> | undefined;
  const gauge: Gauge = new Gauge({
    name: 'proofpr_pull_requests',
    help: 'Pull requests proofpr opened or verified over the outcomes period, by repository, verdict and outcome (merged and kept, merged then reverted, closed unmerged, open).',
    labelNames: ['repository', 'verdict', 'outcome'],
    registers: [registry],
    async collect() {
      if (now() - last < ttlMs) return;
      pending ??= source()
        .then((repos) => {
          gauge.reset();
          for (const { repository, rows } of repos)
            for (const r of rows) for (const outcome of OUTCOMES) gauge.set({ repository, verdict: r.verdict, outcome }, r[outcome]);
          last = now();
        })
        .catch(() => undefined)
        .finally(() => (pending = undefined));
      await pending;
    },
  });
  return gauge;
}
