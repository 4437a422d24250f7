/**
 * `pr.draft_until_ci` (issue 28): proofpr's PR opens as a draft and is marked ready for review once CI on
 * its head passes. Woken by a `check_suite` completed webhook: a suite that passed on the sha that is still
 * the PR's head, with no other check run or commit status on that sha failing or still running, on a PR that
 * is proofpr's own by the ownership rules, whose base branch's config asks for it. proofpr's own check run
 * (the evidence) is not CI: its suite never wakes this.
 */
import type { GitHubPort } from '../github/port.js';
import type { LoadedConfig } from '../github/repo-config.js';
import type { SuiteCompleted } from '../github/event.js';
import { BRANCH_PREFIX } from '../github/trigger.js';
import { prOwnership, type BranchLedger } from './pr-ownership.js';

export interface ReadyDeps {
  github: GitHubPort;
  loadConfig(ref: string): Promise<LoadedConfig>;
  ledger?: BranchLedger;
  /** The App's bot login ("<slug>[bot]"): its PRs are proofpr's; its own suite is not CI. */
  botLogin: string;
}

export interface ReadyOutcome {
  marked: number[];
  /** Why each PR considered was left as it was. */
  skipped: Array<{ number: number; why: string }>;
  why?: string;
}

const PASSED = new Set(['success', 'neutral', 'skipped']);

/** Every other check run and the latest status of every context on `sha`: finished and passing. */
async function ciPassed(github: GitHubPort, sha: string): Promise<string | undefined> {
  if (!github.ci) return undefined;
  const runs = await github.ci.listCheckRuns(sha);
  const open = runs.find((r) => r.status !== 'completed' || !PASSED.has(r.conclusion ?? ''));
  if (open) return `check run ${open.name} is ${open.status === 'completed' ? (open.conclusion ?? 'without a conclusion') : open.status}`;
  const latest = new Map<string, string>();
  for (const s of await github.ci.listCommitStatuses(sha)) if (!latest.has(s.context)) latest.set(s.context, s.state);
  const bad = [...latest].find(([, state]) => state !== 'success');
  return bad ? `status ${bad[0]} is ${bad[1]}` : undefined;
}

/** One PR linked to the suite: why it stays a draft, or undefined when it may be marked ready. */
async function whyNot(n: number, suite: SuiteCompleted, deps: ReadyDeps): Promise<string | undefined> {
  const { github } = deps;
  const pr = await github.getPullRequest(n);
  if (!pr || pr.state !== 'open') return 'not an open pull request';
  if (!pr.draft) return 'not a draft';
  if (pr.headSha !== suite.headSha) return `its head moved to ${pr.headSha?.slice(0, 12) ?? 'an unknown sha'}`;
  const owner = await prOwnership(pr, `${github.owner}/${github.repo}`, deps.ledger, {
    botLogin: deps.botLogin,
    author: async () => pr.author,
  });
  if (owner.kind !== 'own') return owner.kind === 'fork' ? 'a fork' : owner.why;
  const loaded = await deps.loadConfig(pr.baseRef);
  if (!loaded.ok || !loaded.config.pr.draft_until_ci) return 'pr.draft_until_ci is off on its base branch';
  return ciPassed(github, suite.headSha);
}

/** Marks proofpr's draft PRs on a passing suite's head ready for review; see the file comment for when. */
export async function readyWhenCiPasses(suite: SuiteCompleted, deps: ReadyDeps): Promise<ReadyOutcome> {
  if (suite.conclusion !== 'success')
    return { marked: [], skipped: [], why: `the check suite ended ${suite.conclusion ?? 'without a conclusion'}` };
  if (suite.app && `${suite.app}[bot]`.toLowerCase() === deps.botLogin.toLowerCase())
    return { marked: [], skipped: [], why: "proofpr's own check run is not CI" };
  const numbers = [...suite.prNumbers];
  if (numbers.length === 0 && suite.headBranch?.startsWith(BRANCH_PREFIX)) {
    const pr = await deps.github.findPullRequestByHead(suite.headBranch);
    if (pr) numbers.push(pr.number);
  }
  const out: ReadyOutcome = { marked: [], skipped: [] };
  for (const n of numbers) {
    const why = await whyNot(n, suite, deps);
    if (why || !deps.github.markReadyForReview) {
      out.skipped.push({ number: n, why: why ?? 'this GitHub client cannot mark a PR ready' });
      continue;
    }
    await deps.github.markReadyForReview(n);
    out.marked.push(n);
  }
  return out;
}
