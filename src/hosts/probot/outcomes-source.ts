/**
 * The App's source for the `/metrics` outcomes gauges (metrics/outcomes.ts): for every repository of every
 * installation, the outcomes table of the pull requests proofpr opened or verified over the last `days`
 * (github/outcomes.ts, the same as `proofpr outcomes`). Off unless PROOFPR_METRICS_OUTCOMES_DAYS is set: it
 * lists each repository's pull requests, at most once per the gauge's ttl.
 */
import type { Probot } from 'probot';
import { outcomeTable, prOutcomes } from '../../github/outcomes.js';
import type { RestOctokit } from '../../github/rest/rest-octokit.js';
import { logger as makeLogger } from '../../log.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { OutcomesSource } from '../../metrics/outcomes.js';

const log = makeLogger('outcomes');

/** PROOFPR_METRICS_OUTCOMES_DAYS: the period in days, or undefined (off); a bad value is said once and means off. */
export function outcomesDays(raw: NodeJS.ProcessEnv): number | undefined {
  const v = raw.PROOFPR_METRICS_OUTCOMES_DAYS?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isInteger(n) && n > 0) return n;
  log.warn({ value: v }, 'PROOFPR_METRICS_OUTCOMES_DAYS must be a whole number of days (e.g. 30): the outcomes gauges are off');
  return undefined;
}

export function appOutcomesSource(probot: Pick<Probot, 'auth'>, days: number, now: () => number = Date.now): OutcomesSource {
  return async () => {
    const since = new Date(now() - days * 86_400_000);
    const app = await probot.auth();
    const out: Awaited<ReturnType<OutcomesSource>> = [];
    for (const inst of await app.paginate(app.rest.apps.listInstallations, { per_page: 100 })) {
      const octokit = (await probot.auth(inst.id)) as unknown as RestOctokit;
      for (const r of await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })) {
        try {
          const prs = await prOutcomes({ octokit, owner: r.owner.login, repo: r.name, since });
          out.push({ repository: r.full_name, rows: outcomeTable(prs) });
        } catch (e) {
          log.warn({ repo: r.full_name, err: (e as Error).message }, 'outcomes: could not read the pull requests of a repository');
        }
      }
    }
    return out;
  };
}

/** `metrics` with the outcomes gauges attached when PROOFPR_METRICS_OUTCOMES_DAYS is set. */
export function withAppOutcomes(metrics: Metrics, probot: Pick<Probot, 'auth'>, raw: NodeJS.ProcessEnv): Metrics {
  const days = outcomesDays(raw);
  if (days) metrics.attachOutcomes(appOutcomesSource(probot, days));
  return metrics;
}
