/**
 * `/agent fix` (and `/agent plan`) on an issue, from a queued job to a verified PR or an honest comment.
 * Orchestration over ports only: GitHubPort, WorkspacePort, RunTask, ModelFactory, RunRecorder.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { RunEvent } from '../agent/events.js';
import type { RunTaskResult } from '../run/run-task-types.js';
import type { UsecaseDeps } from './ports.js';
import type { Trigger } from '../github/trigger.js';
import { loadIssueContext } from '../github/issue-context.js';
import { sanitizeText, redactSecrets } from '../github/sanitize.js';
import { issueBranch } from './branch-name.js';
import { recordRunError, runStatus } from './run-status.js';
import type { StatusReporter } from '../github/status-reporter.js';
import type { Phase } from '../github/status-comment.js';
import { publishWork, wipLines, type Published } from './publish-work.js';
import { memoryForRun } from '../memory/memory-for-run.js';
import type { PublishedRun } from './publish-ci.js';
import { coAuthorOf, finishRun } from './finish-run.js';
import { taskImages } from './task-images.js';
import type { RunFolderPatch } from '../run/update-run-folder.js';

export { coAuthorOf, publishedRun } from './finish-run.js';

export interface FixIssueInput {
  runId: string;
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
  mode: 'fix' | 'plan';
  signal?: AbortSignal;
}

export interface FixIssueOutcome {
  verdict: string;
  branch: string;
  prUrl?: string;
  /** The PR opened or updated (also in evidence.pr). */
  pr?: { number: number; url: string };
  planCommentUrl?: string;
  /** Unverified work was kept at this ref (refs/proofpr/wip/<run-id>); no branch was pushed. */
  wipRef?: string;
  /** The run itself, when it ran: its evidence (with `pr`), summary and folder. Hosts never read them back from disk. */
  run?: RunTaskResult;
  /** A verified PR was opened or updated: what the CI watch reports on. */
  published?: PublishedRun;
}

/** The model's last text (the plan in plan mode). */
function lastText(events: RunEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev?.type !== 'assistant') continue;
    const text = ev.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('\n')
      .trim();
    if (text) return text;
  }
  return '';
}

/** The issue comment when no fix could be verified: why, the failed gates, and where the work in progress is. */
function unverifiedComment(
  issue: number,
  reason: string,
  failedGates: readonly { name: string; detail: string }[],
  wipRef?: string,
): string {
  const lines = [`proofpr could not verify a fix for #${issue}: ${reason}`];
  if (failedGates.length > 0) lines.push('', 'Failed gates:', ...failedGates.map((g) => `- \`${g.name}\`: ${g.detail}`));
  if (wipRef) lines.push('', ...wipLines(wipRef));
  return lines.join('\n');
}

/** Plan mode: the model's last text is posted on the issue as the plan; nothing was committed or pushed. */
async function postPlan(
  inp: FixIssueInput,
  deps: UsecaseDeps,
  status: StatusReporter,
  r: { events: RunEvent[]; result: RunTaskResult; branch: string },
): Promise<FixIssueOutcome> {
  const n = inp.trigger.number;
  const plan = redactSecrets(lastText(r.events)) || '(the model wrote no plan)';
  const posted = await deps.github.createComment(
    n,
    `### Plan for #${n}\n\n${plan}\n\n_Read-only run \`${inp.runId}\`: nothing was committed or pushed._`,
  );
  await status.set({ phase: 'done', verdict: 'plan posted', reason: posted.url }, true);
  await deps.runs.update(inp.runId, { status: 'done', verdict: 'plan' });
  return { verdict: 'plan', branch: r.branch, planCommentUrl: posted.url, run: r.result };
}

/**
 * Publishes through the one way out: verified work to the branch and its PR (with the check run);
 * unverified work to its WIP ref, and a comment on the issue saying why and where it is.
 */
async function publishIssueWork(
  inp: FixIssueInput,
  deps: UsecaseDeps,
  w: { mirrorDir: string; branch: string; base: string; result: RunTaskResult; status: StatusReporter; folder: RunFolderPatch | undefined },
): Promise<Published> {
  const t = inp.trigger;
  const cfg = inp.config;
  const ev = w.result.evidence;
  const failedGates = ev.gates.filter((g) => !g.passed);
  const published = await publishWork(
    {
      runId: inp.runId,
      repoDir: w.mirrorDir,
      branch: w.branch,
      result: w.result,
      lease: { kind: 'remote-tip' },
      pr: {
        kind: 'upsert',
        base: w.base,
        title: sanitizeText(t.title),
        body: `Fixes #${t.number}\n\n${w.result.summaryMd}`,
        draft: cfg.pr.draft || cfg.pr.draft_until_ci,
        labels: cfg.pr.labels,
      },
      unverified: 'wip-ref',
      ...(w.folder ? { folder: w.folder } : {}),
      status: { reporter: w.status, cancelled: inp.signal?.aborted === true },
    },
    deps,
  );
  if (!published.verified) await deps.github.createComment(t.number, unverifiedComment(t.number, ev.reason, failedGates, published.wipRef));
  return published;
}

export async function fixIssue(inp: FixIssueInput, deps: UsecaseDeps): Promise<FixIssueOutcome> {
  const { github, runs } = deps;
  const t = inp.trigger;
  const cfg = inp.config;
  const branch = issueBranch(t.number, t.title);
  const status = runStatus(deps, inp, t.commenter || 'proofpr', inp.mode);

  let phase: Phase = 'preparing';
  await runs.update(inp.runId, { status: 'running' });
  try {
    await status.set({ phase });
    const ctx = await loadIssueContext(github, t, cfg.authorized);
    const access = await github.gitAccess();
    const mirror = await deps.workspace.ensureMirror({ home: deps.home, url: access.url, token: access.token });
    const base = t.defaultBranch ?? (await github.getDefaultBranch());
    const modelId = deps.modelOverride ?? cfg.model;
    const pictures = await taskImages(github, t, access.token);

    phase = 'working';
    await status.set({ phase });
    const events: RunEvent[] = [];
    const result: RunTaskResult = await deps.runTask({
      repoDir: mirror.dir,
      gitToken: access.token,
      baseRef: base,
      branch: inp.mode === 'plan' ? `${branch}-plan` : branch,
      task: {
        kind: 'issue',
        issue: t.number,
        title: sanitizeText(t.title),
        body: ctx.body,
        ...(t.instructions ? { instructions: sanitizeText(t.instructions) } : {}),
        ...(pictures.images.length ? { images: pictures.images } : {}),
      },
      config: cfg,
      model: deps.modelFactory({ modelId }),
      modelId,
      mode: inp.mode,
      runId: inp.runId,
      runDir: join(deps.home, 'runs', inp.runId),
      worktreesDir: join(deps.home, 'worktrees'),
      // No Co-authored-by trailer when nobody in particular asked (a token whose user is unknown).
      ...(t.commenter ? { coAuthor: coAuthorOf(t) } : {}),
      repoFullName: `${github.owner}/${github.repo}`,
      ...(await memoryForRun(deps.memory, `${github.owner}/${github.repo}`)),
      ...(inp.signal ? { signal: inp.signal } : {}),
      onEvent: (ev) => {
        if (inp.mode === 'plan') events.push(ev);
        status.onEvent(ev);
      },
    });

    phase = 'publishing';
    await status.set({ phase });
    if (inp.mode === 'plan') return await postPlan(inp, deps, status, { events, result, branch });

    const out = await publishIssueWork(inp, deps, { mirrorDir: mirror.dir, branch, base, result, status, folder: pictures.folder });
    const done = await finishRun(deps, inp, { branch, result, out, status: status.state });
    return { ...done, ...(done.pr ? { prUrl: done.pr.url } : {}) };
  } catch (e) {
    await recordRunError(deps, status, inp.runId, phase, e);
    return { verdict: 'error', branch };
  }
}
