/**
 * What CI said when it failed on a sha, as the task of a CI fix round: only the newest completed run of
 * each workflow for that exact sha; its failing jobs' logs read through the Actions API, cut to the
 * failing steps, secrets redacted, and quoted as untrusted data (never instructions). Also the commands
 * those steps ran (from the log's `##[group]Run …` headers): the reproduce gate accepts a run of one of them.
 */
import { quoteUntrusted, redactSecrets } from '../github/sanitize.js';
import type { CiPort, WorkflowJobInfo, WorkflowRunInfo } from './ci-types.js';

export interface CiFailureReport {
  sha: string;
  /** Names of the failing checks (jobs, or check runs / statuses when no Actions job could be read). */
  failing: string[];
  /** Commands the failing steps ran (first line of each `run:`), most specific first. */
  commands: string[];
  /** The task text: the failing checks and their cut logs as quoted data. */
  text: string;
}

const FAILED = new Set(['failure', 'timed_out', 'cancelled', 'startup_failure']);
/** At most this many log lines per failing step, from its end (where the error is). */
const MAX_STEP_LINES = 80;
const MAX_JOBS = 4;

/** The newest completed run of each workflow for exactly `sha` (a re-run replaces an older attempt). */
export function newestCompletedRuns(runs: readonly WorkflowRunInfo[], sha: string): WorkflowRunInfo[] {
  const byName = new Map<string, WorkflowRunInfo>();
  for (const r of runs) {
    if (r.headSha !== sha || r.status !== 'completed') continue;
    const seen = byName.get(r.name);
    if (!seen || r.createdAt > seen.createdAt || (r.createdAt === seen.createdAt && r.id > seen.id)) byName.set(r.name, r);
  }
  return [...byName.values()];
}

interface Section {
  header: string;
  lines: string[];
}

/** A job log's lines without the leading timestamps, split at each step's `##[group]` header. */
export function logSections(log: string): Section[] {
  const out: Section[] = [{ header: '', lines: [] }];
  for (const raw of log.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/^\uFEFF?\d{4}-\d\d-\d\dT[\d:.]+Z ?/, '');
    const g = /^##\[group\](.*)$/.exec(line);
    if (g) out.push({ header: (g[1] ?? '').trim(), lines: [] });
    else if (!/^##\[endgroup\]/.test(line)) out[out.length - 1]?.lines.push(line);
  }
  return out.filter((s) => s.header !== '' || s.lines.some((l) => l.trim() !== ''));
}

/** The sections of the failing steps: by the step's name, else the sections that carry an `##[error]`. */
export function failingSections(log: string, job: Pick<WorkflowJobInfo, 'steps'>): Section[] {
  const sections = logSections(log);
  const names = job.steps.filter((s) => s.conclusion !== null && FAILED.has(s.conclusion)).map((s) => s.name.trim());
  const byName = sections.filter((s) => names.some((n) => s.header === n || (n.startsWith('Run ') && s.header.startsWith(n))));
  if (byName.length > 0) return byName;
  const withError = sections.filter((s) => s.lines.some((l) => l.startsWith('##[error]')));
  return withError.length > 0 ? withError : sections.slice(-1);
}

/** `Run npm test` → `npm test`; `Run actions/setup-node@v4` (an action, not a command) → undefined. */
const commandOf = (header: string): string | undefined => {
  const c = /^Run (.+)$/.exec(header)?.[1]?.trim();
  return c && !/^[\w.-]+\/[\w.\/-]+@\S+$/.test(c) ? c : undefined;
};

export async function ciFailureReport(
  ci: CiPort,
  sha: string,
  fallbackChecks: readonly { name: string; conclusion: string; url: string }[],
): Promise<CiFailureReport> {
  const runs = newestCompletedRuns(await ci.listWorkflowRuns(sha), sha).filter((r) => r.conclusion !== null && FAILED.has(r.conclusion));
  const failing: string[] = [];
  const commands: string[] = [];
  const parts: string[] = [];
  for (const run of runs) {
    const jobs = (await ci.listWorkflowJobs(run.id)).filter((j) => j.conclusion !== null && FAILED.has(j.conclusion)).slice(0, MAX_JOBS);
    for (const job of jobs) {
      const name = `${run.name} / ${job.name}`;
      failing.push(name);
      const log = await ci.jobLog(job.id).catch(() => '');
      const sections = log ? failingSections(log, job) : [];
      for (const s of sections) {
        const c = commandOf(s.header);
        if (c && !commands.includes(c)) commands.push(c);
      }
      const cut = sections
        .map((s) => [s.header ? `step: ${s.header}` : '', ...s.lines.slice(-MAX_STEP_LINES)].filter((l) => l !== '').join('\n'))
        .join('\n\n');
      parts.push(
        quoteUntrusted(
          `CI job "${name}" (${job.url || run.url}), log of its failing steps`,
          redactSecrets(cut || '(no log could be read)'),
        ),
      );
    }
  }
  if (failing.length === 0) {
    for (const c of fallbackChecks)
      if (c.conclusion !== 'success' && c.conclusion !== 'neutral' && c.conclusion !== 'skipped') failing.push(c.name);
    parts.push(quoteUntrusted('CI checks that failed (no Actions log could be read)', failing.map((f) => `- ${f}`).join('\n')));
  }
  const text = [
    `## CI failed on commit ${sha}`,
    '',
    'Task: make these failing checks pass. First reproduce the failure locally: run the command of the failing step (or the closest local equivalent) and see it fail, before changing anything. Then fix the code and run the same command again until it passes. Do not weaken a threshold, skip or delete a check or test, or change the CI configuration to make it pass.',
    ...(commands.length > 0 ? ['', `Commands the failing steps ran: ${commands.map((c) => `\`${c}\``).join(', ')}`] : []),
    '',
    ...parts,
  ].join('\n');
  return { sha, failing, commands, text };
}
