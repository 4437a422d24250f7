/**
 * One bounded CI fix (ci.fix_rounds, default 1, at most 3): when the repository's CI failed on the sha
 * proofpr pushed, and rounds are left, a follow-up run on the same branch gets "make these failing checks
 * pass" with CI's failing steps (ci-failure-report.ts) as quoted data, and must reproduce the failure
 * first (gate ci-reproduced). Never for a PR from a fork, never when the PR moved past that sha. After
 * the last round, a comment says what still fails. The hosts drive it: the Action in its step
 * (runCiFixRounds), the App through a queued follow-up job per round.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { GitHubPort } from '../github/port.js';
import type { Trigger } from '../github/trigger.js';
import { renderStatusComment } from '../github/status-comment.js';
import { ciFailureReport, type CiFailureReport } from './ci-failure-report.js';
import type { CiEvidence } from './ci-types.js';
import type { PublishedRun } from './publish-ci.js';
import { followUpPr } from './follow-up-pr.js';
import type { UsecaseDeps } from './ports.js';
import { logger } from '../log.js';

const log = logger('ci-fix');

export interface CiFixPlan {
  /** The follow-up's trigger: the PR, requested by whoever asked for the first run. */
  trigger: Trigger;
  report: CiFailureReport;
  /** 1 for the first fix round. */
  round: number;
}

export interface PlanCiFixInput {
  ci: CiEvidence;
  published: PublishedRun;
  /** The trigger of the run that pushed (its requester, installation, branches). */
  trigger: Trigger;
  config: { ci: Pick<RepoConfig['ci'], 'wait_min' | 'fix_rounds'> };
  /** Fix rounds already run for this PR's CI (0 after the first push). */
  roundsDone: number;
}

const failingNames = (ci: CiEvidence): string[] =>
  ci.checks.filter((c) => !['success', 'neutral', 'skipped'].includes(c.conclusion)).map((c) => c.name);

/** The next fix round, or undefined (CI did not fail, no round left, a fork, the PR moved on); posts the "still fails" comment after the last round. */
export async function planCiFix(
  inp: PlanCiFixInput,
  github: Pick<GitHubPort, 'ci' | 'getPullRequest' | 'createComment' | 'owner' | 'repo'>,
): Promise<CiFixPlan | undefined> {
  const { ci, published } = inp;
  if (ci.state !== 'failed' || !github.ci) return undefined;
  const pr = await github.getPullRequest(published.prNumber);
  const base = `${github.owner}/${github.repo}`.toLowerCase();
  if (!pr || (pr.headRepo !== undefined && pr.headRepo.toLowerCase() !== base)) {
    log.info({ pr: published.prNumber, headRepo: pr?.headRepo }, 'no CI fix: the PR is not on this repository (fork) or is gone');
    return undefined;
  }
  if (pr.headSha !== undefined && pr.headSha !== ci.sha) {
    log.info({ pr: pr.number, sha: ci.sha, head: pr.headSha }, 'no CI fix: the PR moved past the sha CI failed on');
    return undefined;
  }
  if (inp.roundsDone >= inp.config.ci.fix_rounds) {
    if (inp.roundsDone > 0) {
      const names = failingNames(ci);
      await github.createComment(
        pr.number,
        [
          `CI still fails on \`${ci.sha.slice(0, 12)}\` after ${inp.roundsDone} CI fix round(s) (ci.fix_rounds: ${inp.config.ci.fix_rounds}); proofpr stops here.`,
          '',
          'Still failing:',
          ...(names.length ? names.map((n) => `- ${n}`) : ['- (no check named)']),
          ...ci.checks.filter((c) => names.includes(c.name) && c.url).map((c) => `  ${c.name}: ${c.url}`),
        ].join('\n'),
      );
    }
    return undefined;
  }
  const report = await ciFailureReport(github.ci, ci.sha, ci.checks);
  const t = inp.trigger;
  const trigger: Trigger = {
    ...t,
    kind: 'fix',
    target: 'pr',
    via: 'comment',
    number: pr.number,
    title: t.title,
    body: '',
    instructions: '',
    commentCreatedAt: new Date().toISOString(),
    deliveryId: `ci-fix:${ci.sha}:${inp.roundsDone + 1}`,
    headRef: pr.headRef,
    baseRef: pr.baseRef,
    headRepo: `${github.owner}/${github.repo}`,
  };
  delete trigger.commentId;
  delete trigger.commentKind;
  return { trigger, report, round: inp.roundsDone + 1 };
}

/** The follow-up's status comment on the PR, saying which round this is. */
export async function ciFixStatusComment(
  github: Pick<GitHubPort, 'createComment'>,
  plan: CiFixPlan,
  runId: string,
  config: Pick<RepoConfig, 'max_turns' | 'max_cost_usd' | 'ci'>,
): Promise<{ id: number; url: string }> {
  const head = `CI failed on \`${plan.report.sha.slice(0, 12)}\` (${plan.report.failing.join(', ') || 'failing checks'}): CI fix round ${plan.round} of ${config.ci.fix_rounds}.`;
  const c = await github.createComment(
    plan.trigger.number,
    `${head}\n\n${renderStatusComment({ runId, phase: 'queued', requester: plan.trigger.commenter || 'proofpr', mode: 'follow-up', maxTurns: config.max_turns, budgetUsd: config.max_cost_usd })}`,
  );
  return c;
}

/**
 * The Action's loop (a bounded wait in its step): watch CI on what was pushed; while it failed and
 * rounds are left, run the fix round and watch again. Returns the last CI evidence seen.
 */
export async function runCiFixRounds(
  first: PublishedRun,
  inp: { trigger: Trigger; config: RepoConfig; newRunId: () => string },
  deps: UsecaseDeps & { watch: (p: PublishedRun) => Promise<CiEvidence | undefined> },
): Promise<CiEvidence | undefined> {
  let published: PublishedRun | undefined = first;
  let ci: CiEvidence | undefined;
  for (let done = 0; published; done++) {
    ci = await deps.watch(published);
    if (!ci) return ci;
    const plan = await planCiFix({ ci, published, trigger: inp.trigger, config: inp.config, roundsDone: done }, deps.github);
    if (!plan) return ci;
    const runId = inp.newRunId();
    const statusCommentId = (await ciFixStatusComment(deps.github, plan, runId, inp.config)).id;
    const out = await followUpPr({ runId, trigger: plan.trigger, config: inp.config, statusCommentId, ciFix: plan.report }, deps);
    log.info({ runId, round: plan.round, verdict: out.verdict }, 'CI fix round finished');
    published = out.published;
  }
  return ci;
}
