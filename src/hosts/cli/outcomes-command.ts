import type { OptionValues } from 'commander';
import { outcomeTable, prOutcomes, type OutcomeRow, type PrOutcome } from '../../github/outcomes.js';
import type { RestOctokit } from '../../github/rest/rest-octokit.js';
import { createTokenOctokit } from '../../github/token-octokit.js';
import { UsageError } from './usage-error.js';

const DAY_MS = 86_400_000;

/** `--since`: a date (2026-11-01, or any ISO instant) or a number of days back (`30d`); default 30 days back. */
export function parseSince(value: unknown, now: Date = new Date()): Date {
  if (value === undefined) return new Date(now.getTime() - 30 * DAY_MS);
  const s = String(value).trim();
  const days = /^(\d+)d$/.exec(s);
  if (days) return new Date(now.getTime() - Number(days[1]) * DAY_MS);
  const t = /^\d{4}-\d{2}-\d{2}/.test(s) ? Date.parse(s) : NaN;
  if (Number.isNaN(t)) throw new UsageError(`--since ${s}: expected a date (2026-11-01) or a number of days back (30d)`);
  return new Date(t);
}

const COLUMNS: Array<[keyof OutcomeRow, string]> = [
  ['verdict', 'verdict'],
  ['prs', 'PRs'],
  ['merged', 'merged (kept)'],
  ['reverted', 'merged, reverted later'],
  ['closed', 'closed unmerged'],
  ['open', 'open'],
];

/** The table as text: one row per verdict, a total row, and which PRs were reverted. */
export function renderOutcomes(target: string, since: Date, rows: readonly OutcomeRow[], prs: readonly PrOutcome[]): string {
  const total: OutcomeRow = { verdict: 'all', prs: 0, merged: 0, closed: 0, reverted: 0, open: 0 };
  for (const r of rows) for (const k of ['prs', 'merged', 'closed', 'reverted', 'open'] as const) total[k] += r[k];
  const body = [...rows, ...(rows.length > 1 ? [total] : [])];
  const widths = COLUMNS.map(([k, h]) => Math.max(h.length, ...body.map((r) => String(r[k]).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const out = [
    `Pull requests proofpr opened or verified on ${target} since ${since.toISOString().slice(0, 10)}: ${prs.length}`,
    '',
    line(COLUMNS.map(([, h]) => h)),
    ...body.map((r) => line(COLUMNS.map(([k]) => String(r[k])))),
  ];
  const reverted = prs.filter((p) => p.state === 'reverted');
  if (reverted.length)
    out.push('', 'Reverted:', ...reverted.map((p) => `  #${p.number} (${p.verdict}) ${p.title}: reverted by ${p.revertedBy ?? '?'}`));
  return `${out.join('\n')}\n`;
}

export interface OutcomesDeps {
  env?: NodeJS.ProcessEnv;
  write?: (s: string) => void;
  now?: Date;
  octokit?: (token: string, baseUrl?: string) => RestOctokit;
}

/** `proofpr outcomes --github-repo OWNER/NAME [--since DATE] [--json]`: what became of proofpr's PRs, by verdict. */
export async function outcomesCommand(flags: OptionValues, deps: OutcomesDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const write = deps.write ?? ((s: string) => process.stdout.write(s));
  const target = typeof flags.githubRepo === 'string' ? flags.githubRepo : env.GITHUB_REPOSITORY;
  if (!target) throw new UsageError('--github-repo OWNER/NAME is required (or GITHUB_REPOSITORY in a workflow)');
  const [owner, repo, ...rest] = target.split('/');
  if (!owner || !repo || rest.length > 0) throw new UsageError(`--github-repo ${target}: expected OWNER/NAME`);
  const token = env.GITHUB_TOKEN;
  if (!token) throw new UsageError('GITHUB_TOKEN is not set: outcomes reads pull requests, commits and checks (a token with read access)');
  const since = parseSince(flags.since, deps.now);
  const baseUrl = env.GITHUB_API_URL || undefined;
  const octokit = deps.octokit ? deps.octokit(token, baseUrl) : createTokenOctokit(baseUrl ? { token, baseUrl } : { token });
  const prs = await prOutcomes({ octokit, owner, repo, since });
  const rows = outcomeTable(prs);
  write(renderOutcomes(target, since, rows, prs));
  if (flags.json) write(`${JSON.stringify({ repository: target, since: since.toISOString(), rows, pullRequests: prs })}\n`);
  return 0;
}
