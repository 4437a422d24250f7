/**
 * `serve` runs the configured sweeps on their cron schedule (UTC). Every tick lists the App's installations
 * and their repositories, reads each `.github/proofpr.yml`, and enqueues one sweep job for each sweep whose
 * schedule fired in (previous tick, this tick]. The dedupe key names the slot, so two servers or a restart
 * never run one slot twice. Ticks never overlap; a failure is logged, never thrown out of the timer.
 */
import { CronExpressionParser } from 'cron-parser';
import type { Probot } from 'probot';
import type { Logger } from 'pino';
import type { ProofprJob, SweepJob } from '../../jobs/fix-job.js';
import type { Queue } from '../../jobs/queue.js';
import { createGitHubPort } from '../../github/github-port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { newRunId } from '../../usecases/run-id.js';
import { logger as makeLogger } from '../../log.js';

export interface SweepSchedulerOptions {
  probot: Pick<Probot, 'auth'>;
  queue: Pick<Queue<ProofprJob>, 'enqueue'>;
  /** Time between ticks (default 60 s). */
  intervalMs?: number;
  now?: () => Date;
  logger?: Logger;
  /** Web root for the port (only the config is read; default https://github.com). */
  webUrl?: string;
  /** How long a repository's config is reused before it is read again (default 15 min); 0 = every tick. */
  configTtlMs?: number;
}

export interface SweepScheduler {
  stop(): void;
  /** One tick at `at`: enqueues the sweeps that fired since the previous tick (or in the last interval). */
  tick(at: Date): Promise<void>;
  /** Forget a repository's cached config (e.g. on a push to its default branch); `owner/repo`. */
  invalidate(fullName: string): void;
}

/** At most this many fire times per sweep and window (a long pause does not flood the queue). */
const MAX_FIRES = 5;

/** Fire times of `cron` in (from, to], UTC; throws on an invalid expression. */
export function fireTimes(cron: string, from: Date, to: Date): Date[] {
  const expr = CronExpressionParser.parse(cron, { currentDate: from, tz: 'UTC' });
  const out: Date[] = [];
  while (out.length < MAX_FIRES) {
    const next = expr.next().toDate();
    if (next.getTime() > to.getTime()) break;
    out.push(next);
  }
  return out;
}

type Octokit = Awaited<ReturnType<Probot['auth']>>;

export function startSweepScheduler(opts: SweepSchedulerOptions): SweepScheduler {
  const intervalMs = opts.intervalMs ?? 60_000;
  const now = opts.now ?? (() => new Date());
  const log = opts.logger ?? makeLogger('scheduler');
  const webUrl = opts.webUrl ?? 'https://github.com';
  let last: Date | undefined;
  let chain: Promise<void> = Promise.resolve();
  // Configs are read once per TTL, not every tick: a minute-by-minute read of every repository is the
  // App's largest API cost at rest.
  const ttl = opts.configTtlMs ?? 15 * 60_000;
  const configs = new Map<string, { at: number; loaded: Awaited<ReturnType<typeof loadRepoConfig>> }>();

  async function sweepRepo(octokit: Octokit, installationId: number, owner: string, repo: string, from: Date, to: Date): Promise<void> {
    const full = `${owner}/${repo}`;
    const cached = configs.get(full);
    const fresh = cached !== undefined && ttl > 0 && to.getTime() - cached.at < ttl;
    const loaded = fresh ? cached.loaded : await loadRepoConfig(createGitHubPort(octokit, { owner, repo, webUrl }));
    if (!fresh) configs.set(full, { at: to.getTime(), loaded });
    if (!loaded.ok) {
      log.warn({ repo: full, problems: loaded.problems }, 'sweeps skipped: .github/proofpr.yml is invalid');
      return;
    }
    for (const s of loaded.config.sweeps) {
      const fires = s.schedule ? firesOrWarn(s.name, s.schedule, full, from, to, log) : [];
      for (const at of fires) {
        const slot = at.toISOString().slice(0, 16);
        const runId = newRunId(at);
        const data: SweepJob = { kind: 'sweep', owner, repo, installationId, sweep: s.name, runId, firedAt: at.toISOString() };
        const res = await opts.queue.enqueue({ runId, data }, { dedupeKey: `sweep:${full}:${s.name}:${slot}` });
        log.info({ repo: full, sweep: s.name, slot, deduped: res.deduped }, res.deduped ? 'sweep slot already queued' : 'sweep queued');
      }
    }
  }

  async function runTick(at: Date): Promise<void> {
    const from = last ?? new Date(at.getTime() - intervalMs);
    if (at.getTime() <= from.getTime()) return;
    try {
      const app = await opts.probot.auth();
      const installations = await app.paginate(app.rest.apps.listInstallations, { per_page: 100 });
      for (const inst of installations) {
        try {
          const octokit = await opts.probot.auth(inst.id);
          const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
          for (const r of repos) {
            try {
              await sweepRepo(octokit, inst.id, r.owner.login, r.name, from, at);
            } catch (e) {
              log.warn({ repo: r.full_name, err: (e as Error).message }, 'sweep scheduling failed for a repository');
            }
          }
        } catch (e) {
          log.warn({ installationId: inst.id, err: (e as Error).message }, 'sweep scheduling failed for an installation');
        }
      }
    } catch (e) {
      log.error({ err: (e as Error).message }, 'sweep scheduler tick failed');
    }
    last = at;
  }

  const tick = (at: Date): Promise<void> => {
    const run = chain.then(() => runTick(at));
    chain = run.catch(() => undefined);
    return run;
  };

  const timer = nonOverlapping(intervalMs, () => tick(now()));

  return {
    stop: () => clearInterval(timer),
    tick,
    invalidate: (fullName) => void configs.delete(fullName),
  };
}

/** The times a sweep's schedule fires in (from, to]; none, with a warning, when the cron expression is invalid. */
function firesOrWarn(
  sweep: string,
  schedule: string,
  repo: string,
  from: Date,
  to: Date,
  log: { warn(obj: object, msg: string): void },
): Date[] {
  try {
    return fireTimes(schedule, from, to);
  } catch (e) {
    log.warn({ repo, sweep, schedule, err: (e as Error).message }, 'sweep skipped: its schedule is not a valid cron expression');
    return [];
  }
}

/** Calls `f` every `ms`, skipping a beat while the previous call runs (the next window starts at the last finished one: no slot is lost). */
function nonOverlapping(ms: number, f: () => Promise<void>): NodeJS.Timeout {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void f().finally(() => {
      busy = false;
    });
  }, ms);
  timer.unref();
  return timer;
}
