/**
 * `proofpr backtest`: would proofpr have verified this repository's last fixes? The steps:
 * 1. a cache repository sharing the user's objects (nothing is written into the user's repository);
 * 2. the walk: non-merge commits from HEAD that change code and tests (pick-candidates.ts);
 * 3. per candidate, newest first, until `last` cases: the rule's test run (qualify-case.ts), then the
 *    replayed fix and the test change alone through `proofpr run` (and the agent with --model);
 * 4. the report: cases, commits passed over with why, the summary and the cost estimate.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseBundle } from './base-bundle.js';
import { openCheckout, type Checkout } from './checkout.js';
import { estimateCost } from './cost-estimate.js';
import { git } from './git.js';
import { pickCandidates, type Candidate } from './pick-candidates.js';
import { qualifyCase } from './qualify-case.js';
import { agentCase, replayCase, type CaseContext } from './run-case.js';
import { summarize } from './summarize.js';
import type { BacktestCase, BacktestReport, SkippedCommit } from './types.js';

export interface BacktestOptions {
  /** The repository to backtest (a work tree or a bare repository). */
  repo: string;
  /** How many qualified cases to run. */
  last: number;
  /** Where the run folders go (backtest.json is the caller's to write). */
  runsDir: string;
  /** PROOFPR_HOME of the passes. */
  home: string;
  bin: string;
  env: NodeJS.ProcessEnv;
  /** --model: an id, or true for the configured model. */
  model?: string | true;
  /** --config: a proofpr.yml used for every case (its path, passed to each pass, and its text), instead of each parent's own. */
  config?: { path: string; text: string };
  /** The model the cost estimate prices. */
  modelId: string;
  /** How many non-merge commits the walk looks at (default 200). */
  scan?: number;
  progress?: (line: string) => void;
  /** After each case: the report so far (the caller writes it, so an interrupted backtest keeps its cases). */
  onReport?: (partial: BacktestReport) => void;
}

/** Qualification attempts per wanted case: a walk stops after `last × 3` commits were tried. */
const ATTEMPTS_PER_CASE = 3;

async function oneCase(
  ctx: CaseContext,
  co: Checkout,
  c: Candidate,
  testCommand: string,
  runnerCount: number | null,
): Promise<BacktestCase> {
  const message = `the parent of ${c.commit} (${c.subject})\n`;
  const bundle = join(ctx.work, `${c.commit.slice(0, 12)}.bundle`);
  baseBundle(ctx.bare, c.parent, message, bundle);
  const { fix, testOnly } = await replayCase({ ...ctx, ...(co.envNames ? { envNames: co.envNames } : {}) }, c, bundle, testCommand);
  const agent = ctx.model !== undefined ? await agentCase(ctx, co, c, bundle, testCommand) : undefined;
  const base = { commit: c.commit, parent: c.parent, subject: c.subject, code: c.code, tests: c.tests, testCommand, runnerCount };
  return { ...base, fix, testOnly, ...(agent ? { agent } : {}) };
}

async function walk(
  ctx: CaseContext,
  co: Checkout,
  candidates: Candidate[],
  last: number,
  onCase: (cases: BacktestCase[], skipped: SkippedCommit[]) => void,
) {
  const cases: BacktestCase[] = [];
  const skipped: SkippedCommit[] = [];
  let tried = 0;
  for (const c of candidates) {
    if (cases.length >= last || tried >= last * ATTEMPTS_PER_CASE) break;
    tried += 1;
    ctx.progress(`${c.commit.slice(0, 7)} ${c.subject}`);
    const q = await qualifyCase(co, c);
    if (!q.ok) {
      ctx.progress(`  passed over: ${q.why}`);
      skipped.push({ commit: c.commit, subject: c.subject, why: q.why });
      continue;
    }
    cases.push(await oneCase(ctx, co, c, q.testCommand, q.runnerCount));
    onCase(cases, skipped);
  }
  return { cases, skipped };
}

export async function runBacktest(o: BacktestOptions): Promise<BacktestReport> {
  const startedAt = new Date().toISOString();
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-backtest-')));
  const progress = o.progress ?? (() => {});
  try {
    const bare = join(work, 'cache.git');
    git(work, ['clone', '-q', '--bare', '--shared', o.repo, bare]);
    const head = git(bare, ['rev-parse', 'HEAD']).trim();
    const picked = pickCandidates(bare, o.scan ?? 200);
    const co = openCheckout(bare, join(work, 'checkout'), join(work, 'home'), {
      ...(o.config ? { configText: o.config.text } : {}),
      env: o.env,
    });
    mkdirSync(o.runsDir, { recursive: true });
    const ctx: CaseContext = {
      bin: o.bin,
      bare,
      work,
      runsDir: o.runsDir,
      home: o.home,
      env: o.env,
      progress,
      ...(o.config ? { config: o.config.path } : {}),
      ...(o.model !== undefined ? { model: o.model } : {}),
    };
    const estimate = estimateCost(bare, head, o.modelId);
    const report = (cases: BacktestCase[], skipped: SkippedCommit[]): BacktestReport => ({
      version: 1,
      repo: o.repo,
      head,
      startedAt,
      endedAt: new Date().toISOString(),
      last: o.last,
      ...(o.model !== undefined ? { model: o.modelId } : {}),
      cases,
      skipped: [...skipped, ...picked.skipped],
      estimate,
      summary: summarize(cases, estimate),
    });
    const { cases, skipped } = await walk(ctx, co, picked.candidates, o.last, (sc, sk) => o.onReport?.(report(sc, sk)));
    return report(cases, skipped);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
