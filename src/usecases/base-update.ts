/**
 * The base branch merged into proofpr's PR branch before a follow-up run (issue 28, "a PR that sees itself
 * through"). On `/agent fix`, a conflicting base is merged (a clean one too with `ci.auto_update`). With
 * `ci.auto_update`, a push that moves the base also queues a follow-up job (accept-base-push.ts) that no one
 * commented for: that job opens its status comment only when there is work, that is when the base conflicts
 * with the PR, as git's merge in the mirror says (GitHub's `mergeable` flag is computed later, and null right
 * after the push). A base that merges cleanly is left to the PR's CI, which runs on GitHub's merge ref anyway,
 * and nothing is written. Over the monthly budget, a comment says so and nothing runs. The push is always a
 * fast-forward of the PR's tip (publish-work's fast-forward lease), never a force push.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { StatusReporter } from '../github/status-reporter.js';
import type { StatusState } from '../github/status-comment.js';
import { renderStatusComment } from '../github/status-comment.js';
import type { Trigger } from '../github/trigger.js';
import { overBudget } from './accept-request.js';
import type { UsecaseDeps } from './ports.js';
import { statusReporterOn } from './run-status.js';

/** The base branch merged into the PR branch before the run. */
export interface BaseUpdate {
  /** The merge commit the run continued from. */
  sha: string;
  /** The PR branch's remote tip before the merge: the push must fast-forward it. */
  startSha: string;
  /** The base branch's tip that was merged. */
  baseSha: string;
  conflicts: string[];
  taskText: string;
}

/** A follow-up that a moved base started, not a comment. */
export const isAutoUpdate = (t: Pick<Trigger, 'via'>): boolean => t.via === 'base-update';

/** The base merged into the PR branch (when it conflicts, or always with ci.auto_update on `/agent fix`), before the run. */
export async function updateWithBase(
  inp: { trigger: Trigger; config: RepoConfig; ciFix?: unknown },
  deps: Pick<UsecaseDeps, 'workspace'>,
  w: { mirrorDir: string; branch: string; baseRef: string; startSha: string | undefined; token: string },
): Promise<BaseUpdate | undefined> {
  const merge = deps.workspace.mergeIntoBranch;
  // A CI fix round reproduces CI's failure on the head as it is: no base update there.
  if (!merge || !w.startSha || inp.ciFix) return undefined;
  const m = await merge({
    repoDir: w.mirrorDir,
    branch: w.branch,
    tipSha: w.startSha,
    base: w.baseRef,
    // A moved base acts on conflicts only (see the file comment); a maintainer's /agent fix follows the config.
    always: !isAutoUpdate(inp.trigger) && inp.config.ci.auto_update,
    identity: inp.config.commit,
    token: w.token,
  });
  if (m.kind !== 'merged') return undefined;
  return { sha: m.sha, startSha: w.startSha, baseSha: m.baseSha, conflicts: m.conflicts, taskText: baseUpdateText(w.baseRef, m.conflicts) };
}

/** The task's words for a merged base: the conflict markers are the work. */
function baseUpdateText(base: string, conflicts: string[]): string {
  if (conflicts.length === 0)
    return `The base branch \`${base}\` moved; it was merged into this pull request's branch cleanly. Run the tests on the merged tree and fix what the merge broke, if anything.`;
  return [
    `The base branch \`${base}\` moved and conflicts with this pull request. It was merged into the branch; these files hold git conflict markers (<<<<<<<, =======, >>>>>>>):`,
    ...conflicts.map((c) => `- ${c}`),
    "Resolve every conflict so that both the base branch's change and this pull request's change keep working, remove all markers, and run the tests.",
  ].join('\n');
}

/** A status reporter whose comment is posted only when `open` is called; until then it only keeps the state. */
export interface DeferredStatus extends StatusReporter {
  readonly opened: boolean;
  /** Posts the status comment with `note` under its title (kept on every edit) and reports there from now on. */
  open(note: string): Promise<number>;
}

export function deferredStatus(
  deps: UsecaseDeps,
  inp: { runId: string; config: RepoConfig; trigger: Pick<Trigger, 'number'> },
  requester: string,
): DeferredStatus {
  const cfg = inp.config;
  const state: StatusState = {
    runId: inp.runId,
    phase: 'queued',
    requester,
    mode: 'follow-up',
    maxTurns: cfg.max_turns,
    budgetUsd: cfg.max_cost_usd,
  };
  let real: StatusReporter | undefined;
  return {
    get state() {
      return real?.state ?? state;
    },
    get opened() {
      return real !== undefined;
    },
    async set(patch, force) {
      if (real) return real.set(patch, force);
      Object.assign(state, patch);
    },
    onEvent(ev) {
      real?.onEvent(ev);
    },
    async flush() {
      await real?.flush();
    },
    async open(note) {
      state.note = note;
      const c = await deps.github.createComment(inp.trigger.number, renderStatusComment(state));
      await deps.runs.update(inp.runId, { commentId: c.id });
      real = statusReporterOn(deps, c.id, state);
      return c.id;
    },
  };
}

export type AutoStart = { kind: 'run'; statusCommentId: number } | { kind: 'done'; verdict: string };

const short = (sha: string): string => sha.slice(0, 12);

/**
 * A moved base's job, once the mirror said whether the base conflicts: nothing to do (no comment), over
 * the budget (a comment with the spend), or the status comment opened with what proofpr does and why.
 */
export async function startAutoUpdate(
  inp: { runId: string; trigger: Trigger; config: RepoConfig },
  deps: UsecaseDeps,
  w: { status: DeferredStatus; update: BaseUpdate | undefined; baseRef: string },
): Promise<AutoStart> {
  const { update } = w;
  if (!update) {
    await deps.runs.update(inp.runId, { status: 'done', verdict: 'up-to-date' });
    return { kind: 'done', verdict: 'up-to-date' };
  }
  const files = update.conflicts.map((c) => `\`${c}\``).join(', ');
  const moved = `The base branch \`${w.baseRef}\` moved to \`${short(update.baseSha)}\` and conflicts with this pull request in ${files}.`;
  const over = await overBudget(inp.trigger, inp.config, deps.runs, deps.installationMonthlyUsd);
  if (over) {
    await deps.github.createComment(inp.trigger.number, `${moved} \`ci.auto_update\` is on, but ${lowerFirst(over.text)}`);
    await deps.runs.update(inp.runId, { status: 'done', verdict: 'refused' });
    return { kind: 'done', verdict: 'refused' };
  }
  const note = `${moved} \`ci.auto_update\` is on: proofpr merged it into the branch and resolves the conflicts in this run; only verified work is pushed, as a fast-forward of \`${short(update.startSha)}\` (never a force push).`;
  return { kind: 'run', statusCommentId: await w.status.open(note) };
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** The note once verified work was pushed: what the update did. */
export function pushedNote(baseRef: string, update: BaseUpdate, headSha: string, branch: string): string {
  const merged = `Merged \`${baseRef}\` (\`${short(update.baseSha)}\`) into \`${branch}\``;
  const resolved = update.conflicts.length ? `, resolved the conflicts in ${update.conflicts.map((c) => `\`${c}\``).join(', ')}` : '';
  return `${merged}${resolved}, re-verified, and pushed \`${short(headSha)}\` as a fast-forward of \`${short(update.startSha)}\` (no force push).`;
}

/** A moved base's job that failed before it had a comment: one now, so the failure is seen. */
export async function openForFailure(status: DeferredStatus, baseRef: string | undefined, prefix: string): Promise<void> {
  if (status.opened) return;
  const base = baseRef ? `The base branch \`${baseRef}\` moved` : 'The base branch moved';
  await status
    .open(`${base}, and proofpr could not update this pull request with it (\`ci.auto_update\`); comment \`${prefix} fix\` to try again.`)
    .catch(() => undefined);
}
