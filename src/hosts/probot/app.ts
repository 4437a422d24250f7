/**
 * The Probot app function: every event that can carry a command goes through intake (parse → config →
 * trigger → dedupe → authorize → lease → enqueue). The run itself happens in a worker, not in the webhook.
 */
import type { ApplicationFunction } from 'probot';
import { pushChangesConfig } from '../../github/config-push.js';
import { createGitHubPort } from '../../github/github-port.js';
import { intake, type IntakeDeps, type IntakeOutcome } from './intake.js';
import { probotBotLogin } from './bot-login.js';
import { parseCheckSuite } from '../../github/event.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { readyWhenCiPasses } from '../../usecases/ready-for-review.js';
import { onBasePush } from './on-base-push.js';
import { onPullRequest, PULL_REQUEST_EVENTS, type PullRequestOutcome, type PullRequestVerifier } from './on-pull-request.js';

export interface ProofprAppOptions extends IntakeDeps {
  /** https://github.com, or `${GHE_PROTOCOL}://${GHE_HOST}`. */
  webUrl: string;
  /** Called after each handled event (tests, metrics). */
  onIntake?: (r: { outcome: IntakeOutcome; runId?: string; deliveryId: string }) => void;
  /** A check run / check suite completed or a commit status changed on `sha` (wakes the CI watch). */
  onCiEvent?: (repo: string, sha: string) => void;
  /** A push to the default branch changed `.github/proofpr.yml` (the sweep scheduler forgets its cached config); `owner/repo`. */
  onConfigPush?: (repo: string) => void;
  /** `verify.pull_requests`: verifies a pull request and posts `proofpr/verified` (absent: pull_request events are not handled). */
  verifyPullRequest?: PullRequestVerifier;
  /** Called after each pull_request event (tests): the decision and, when started, the verification's end. */
  onPullRequest?: (r: { outcome: PullRequestOutcome; done?: Promise<void>; deliveryId: string }) => void;
}

export const CI_EVENTS = ['check_run.completed', 'check_suite.completed', 'status'] as const;

/** The sha a CI webhook is about. */
function ciSha(payload: unknown): string | undefined {
  const p = payload as { check_run?: { head_sha?: string }; check_suite?: { head_sha?: string }; sha?: string };
  return p.check_run?.head_sha ?? p.check_suite?.head_sha ?? p.sha;
}

export const WATCHED_EVENTS = [
  'issue_comment.created',
  'issues.labeled',
  'issues.assigned',
  'pull_request_review_comment.created',
  'pull_request_review.submitted',
] as const;

export function proofprApp(opts: ProofprAppOptions): ApplicationFunction {
  return (app) => {
    const botLogin = opts.botLogin ?? probotBotLogin(app);
    app.on([...WATCHED_EVENTS], async (context) => {
      const { owner, repo } = context.repo();
      const github = createGitHubPort(context.octokit, { owner, repo, webUrl: opts.webUrl });
      const res = await intake({ name: context.name, id: context.id, payload: context.payload }, github, { ...opts, botLogin });
      context.log.info(
        { delivery: context.id, event: context.name, outcome: res.outcome, runId: res.runId, repo: `${owner}/${repo}` },
        'delivery',
      );
      opts.onIntake?.({ outcome: res.outcome, ...(res.runId ? { runId: res.runId } : {}), deliveryId: context.id });
    });
    // CI webhooks cost no API call: they only wake a watch of that sha, which reads the checks itself.
    app.on([...CI_EVENTS], async (context) => {
      const { owner, repo } = context.repo();
      const sha = ciSha(context.payload);
      if (sha) opts.onCiEvent?.(`${owner}/${repo}`, sha);
    });
    // draft_until_ci: a passing suite on the head of proofpr's draft PR marks it ready (no API call for a failed one).
    app.on('check_suite.completed', async (context) => {
      const suite = parseCheckSuite(context.payload);
      if (!suite || suite.conclusion !== 'success') return;
      const { owner, repo } = context.repo();
      const github = createGitHubPort(context.octokit, { owner, repo, webUrl: opts.webUrl });
      const out = await readyWhenCiPasses(suite, {
        github,
        loadConfig: (ref) => loadRepoConfig(github, ref),
        ledger: opts.runs,
        botLogin: (await botLogin().catch(() => undefined)) ?? 'proofpr[bot]',
      });
      if (out.marked.length > 0 || out.skipped.length > 0)
        context.log.info(
          { delivery: context.id, repo: `${owner}/${repo}`, sha: suite.headSha, ...out },
          'draft PRs after a passing check suite',
        );
    });
    // verify.pull_requests: any pull request's head gets the proofpr/verified check (the base branch's config decides).
    const verifyPr = opts.verifyPullRequest;
    if (verifyPr)
      app.on([...PULL_REQUEST_EVENTS], async (context) => {
        const { owner, repo } = context.repo();
        const github = createGitHubPort(context.octokit, { owner, repo, webUrl: opts.webUrl });
        const res = await onPullRequest(context.payload, github, verifyPr);
        context.log.info({ delivery: context.id, event: context.name, outcome: res.outcome, repo: `${owner}/${repo}` }, 'pull request');
        opts.onPullRequest?.({ ...res, deliveryId: context.id });
      });
    // The config refresh costs no API call: the payload says whether the config changed.
    app.on('push', async (context) => {
      const { owner, repo } = context.repo();
      if (pushChangesConfig(context.payload)) {
        context.log.info({ delivery: context.id, repo: `${owner}/${repo}` }, 'config pushed: sweep schedule re-read at the next tick');
        opts.onConfigPush?.(`${owner}/${repo}`);
      }
      // ci.auto_update: proofpr's PRs onto the moved branch (one API call, the PR list, when none targets it).
      await onBasePush(context, { ...opts, botLogin });
    });
  };
}
