/**
 * Maintenance sweeps (`sweeps:` in the config): a baseline test run on the base, then the agent under the
 * same gates as any run; a verified change goes to the sweep's own PR (reused while it is open, never
 * more than max_open_prs), and nothing is opened when there is nothing to change.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { RunEvent } from '../agent/events.js';
import type { ModelClient } from '../model/model-client.js';
import type { Evidence } from '../agent/evidence/types.js';
import { buildEvidence } from '../agent/evidence/evidence.js';
import { renderSummaryMd } from '../agent/evidence/summary-md.js';
import type { HostPlace } from '../agent/evidence/host-paths.js';
import { exitCodeFor } from '../agent/evidence/types.js';
import type { GitHubPort, PullRequestInfo } from '../github/port.js';
import type { WorkspacePort } from './ports.js';
import type { BranchLedger } from './pr-ownership.js';
import type { RunTask, RunTaskResult } from '../run/run-task-types.js';
import { writeRunFolder } from '../run/run-folder.js';
import { updateRunFolder, type RunFolderPatch } from '../run/update-run-folder.js';
import { isVerified, publishWork, type PublishDeps, type PublishGitHub } from './publish-work.js';
import { slugify, sweepBranch } from './branch-name.js';
import { newRunId } from './run-id.js';
import type { CommandChoice } from '../detect/resolve-commands.js';
import { baselineFailed, describeBaseline, runBaseline, type BaselineResult, type BaselineRunner } from './sweep-baseline.js';
import { memoryForRun } from '../memory/memory-for-run.js';
import type { MemoryStore } from '../memory/types.js';

export type SweepConfig = RepoConfig['sweeps'][number];

export type SweepGitHub = PublishGitHub & Pick<GitHubPort, 'listOpenPullRequests'>;

export interface SweepInput {
  /** The repository to make worktrees from (a checkout or a mirror). */
  repoDir: string;
  /** Commit-ish the sweep starts from. */
  baseRef: string;
  /** Branch name the PR targets. */
  prBase: string;
  config: RepoConfig;
  /** Only these sweeps (default: all). */
  names?: string[];
  /** The cron expression that fired (a schedule event): sweeps with exactly this schedule, else all. */
  schedule?: string;
  modelId: string;
  /** runs/ and worktrees/ live under it. */
  home: string;
  repoFullName?: string;
  signal?: AbortSignal;
  onEvent?: (sweep: string, ev: RunEvent) => void;
}

export interface SweepDeps {
  runTask: RunTask;
  model: ModelClient;
  /** Absent: local only (the work stays committed on the branch; no push, no PR). */
  github?: SweepGitHub;
  workspace?: Pick<WorkspacePort, 'pushBranch'>;
  baseline?: BaselineRunner;
  now?: () => Date;
  /** Where the branches proofpr created are recorded (its own PRs are the ones it follows up on). */
  branches?: BranchLedger;
  /** The repositories' feedback memory: its index goes into the sweep's prompt too. */
  memory?: MemoryStore;
}

export interface SweepOutcome {
  name: string;
  runId: string;
  runDir: string;
  evidencePath: string;
  /** The run's verdict, or 'skipped' when the sweep was not run (max_open_prs: 0). */
  verdict: Evidence['verdict'] | 'skipped';
  reason: string;
  exitCode: number;
  branch?: string;
  pr?: { number: number; url: string; created: boolean };
  summaryMd: string;
}

/** A usage problem in the sweep selection (no sweeps, unknown name): exit code 2. */
export class SweepSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepSelectionError';
  }
}

export function selectSweeps(config: RepoConfig, names?: string[], schedule?: string): SweepConfig[] {
  if (config.sweeps.length === 0)
    throw new SweepSelectionError('sweeps: no sweep is configured in .github/proofpr.yml (add a `sweeps:` list with name and prompt)');
  if (names && names.length > 0) {
    const known = new Set(config.sweeps.map((s) => s.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length > 0)
      throw new SweepSelectionError(`--name ${unknown.join(', ')}: no such sweep (configured: ${[...known].join(', ')})`);
    return config.sweeps.filter((s) => names.includes(s.name));
  }
  const matching = schedule ? config.sweeps.filter((s) => s.schedule === schedule) : [];
  return matching.length > 0 ? matching : config.sweeps;
}

/** The exit code of several sweeps: an internal error wins, else the worst of aborted (4) > unverified (3) > verified (0). */
export function sweepExitCode(outcomes: readonly SweepOutcome[]): number {
  const codes = outcomes.map((o) => o.exitCode);
  if (codes.includes(1)) return 1;
  return Math.max(0, ...codes);
}

function titleOf(s: SweepConfig): string {
  const first = s.prompt.trim().split('\n')[0] ?? '';
  return `proofpr sweep ${s.name}: ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
}

/** summary.md of a sweep: the run's summary under the sweep's name, then its baseline. */
function sweepSummary(evidence: Evidence, s: SweepConfig, baseline: BaselineResult, places: readonly HostPlace[]): string {
  const red = baseline.run && baselineFailed(baseline.run) ? ' — red on the base, recorded (baseline: record)' : '';
  const base = `\n### Baseline\n\n${describeBaseline(baseline)} (before any change)${red}\n`;
  return renderSummaryMd(evidence, { sweep: { name: s.name, ...(s.schedule ? { schedule: s.schedule } : {}) }, places }) + base;
}

/** What a sweep adds to its run folder: the baseline in the evidence and the sweep's summary.md. */
function sweepFolder(evidence: Evidence, s: SweepConfig, baseline: BaselineResult, places: readonly HostPlace[] = []): RunFolderPatch {
  return { evidence: baseline.run ? { baseline: baseline.run } : {}, summaryMd: sweepSummary(evidence, s, baseline, places) };
}

/** The sweep's outcome reaches its run folder through the one writer. */
async function finish(
  runDir: string,
  evidence: Evidence,
  s: SweepConfig,
  baseline: BaselineResult,
  places: readonly HostPlace[] = [],
): Promise<{ summaryMd: string; evidencePath: string }> {
  const f = await updateRunFolder(runDir, sweepFolder(evidence, s, baseline, places), { current: evidence });
  return { summaryMd: f.summaryMd, evidencePath: join(runDir, 'evidence.json') };
}

/**
 * Why the sweep stops before the agent, or undefined: the base could not be measured (the real cause:
 * no test command, setup failed, counts unreadable), or it is red and the sweep says `baseline: require_green`.
 * With `baseline: record` (the default) a red base is recorded and the sweep runs ("make the failing tests pass").
 */
function baselineStop(s: SweepConfig, b: BaselineResult): string | undefined {
  if (b.problem || !b.run) return `the sweep did not run: ${b.problem ?? 'the base could not be measured'}`;
  if (s.baseline === 'require_green' && baselineFailed(b.run)) {
    return `the tests already fail on the base before any change (${describeBaseline(b)}); the sweep did not run, so unrelated failures are not mixed into its change (baseline: require_green): fix the base first, or set baseline: record`;
  }
  return undefined;
}

function commandFact(c: CommandChoice): NonNullable<Evidence['test']> {
  return { command: c.command, source: c.source, why: c.why };
}

/** Runs the selected sweeps one after the other and returns one outcome each. */
export async function runSweeps(input: SweepInput, deps: SweepDeps): Promise<SweepOutcome[]> {
  const out: SweepOutcome[] = [];
  for (const s of selectSweeps(input.config, input.names, input.schedule)) {
    if (input.signal?.aborted) break;
    out.push(await runOneSweep(s, input, deps));
  }
  return out;
}

/** A sweep the baseline stopped before the agent ran: its evidence, an empty transcript and the report are still written. */
async function recordBaselineStop(
  input: SweepInput,
  r: { runId: string; runDir: string; task: Evidence['task']; branch: string; baseline: BaselineResult; stop: string; sweep: SweepConfig },
): Promise<{ summaryMd: string; evidencePath: string; verdict: 'unverified'; reason: string; exitCode: number }> {
  const { baseline, runDir } = r;
  const at = new Date().toISOString();
  const evidence = buildEvidence([], {
    runId: r.runId,
    startedAt: baseline.run?.startedAt ?? at,
    endedAt: at,
    verdict: 'unverified',
    reason: r.stop,
    task: r.task,
    repo: {
      ...(input.repoFullName ? { fullName: input.repoFullName } : { path: input.repoDir }),
      baseSha: baseline.baseSha,
      branch: r.branch,
    },
    filesChanged: [],
    ...(baseline.run ? { baseline: baseline.run } : {}),
    ...(baseline.test ? { test: commandFact(baseline.test) } : {}),
    model: input.modelId,
  });
  await writeFile(join(runDir, 'transcript.jsonl'), '');
  await writeRunFolder(runDir, evidence, [], '', []);
  const f = await finish(runDir, evidence, r.sweep, baseline);
  return { ...f, verdict: 'unverified', reason: r.stop, exitCode: exitCodeFor('unverified') };
}

/** Verified sweep work through the one way out: its branch (lease on the remote tip), its one PR with the labels, the check run. */
async function publishSweep(
  s: SweepConfig,
  input: SweepInput,
  deps: PublishDeps,
  w: { branch: string; runId: string; result: RunTaskResult; evidence: Evidence; baseline: BaselineResult },
): Promise<NonNullable<SweepOutcome['pr']>> {
  const config = input.config;
  const folder = sweepFolder(w.evidence, s, w.baseline, w.result.places);
  const out = await publishWork(
    {
      runId: w.runId,
      repoDir: input.repoDir,
      branch: w.branch,
      result: { ...w.result, evidence: w.evidence },
      lease: { kind: 'remote-tip' },
      pr: {
        kind: 'upsert',
        base: input.prBase,
        title: titleOf(s),
        body: folder.summaryMd ?? '',
        draft: config.pr.draft,
        labels: [...new Set([...config.pr.labels, ...s.labels])],
      },
      // Only verified sweep work is published; a scheduled sweep has nobody to tell where a WIP ref is.
      unverified: 'keep-local',
      folder,
    },
    deps,
  );
  if (!out.pr) throw new Error(`sweep ${s.name}: verified work was published without a pull request`);
  return out.pr;
}

/** The sweep's newest open PR (its branch is reused while it is open), if any. */
async function openSweepPr(github: SweepGitHub, s: SweepConfig): Promise<PullRequestInfo | undefined> {
  const prefix = `proofpr/sweep-${slugify(s.name)}-`;
  const open = (await github.listOpenPullRequests())
    .filter((p) => p.headRef.startsWith(prefix))
    .sort((a, b) => b.headRef.localeCompare(a.headRef) || b.number - a.number);
  return open[0];
}

async function runOneSweep(s: SweepConfig, input: SweepInput, deps: SweepDeps): Promise<SweepOutcome> {
  const config = input.config;
  const github = deps.github;
  const now = deps.now ?? (() => new Date());
  const runId = newRunId(now());
  const runDir = join(input.home, 'runs', runId);
  const task = { kind: 'sweep' as const, sweep: s.name, title: titleOf(s), body: s.prompt };
  const common = { name: s.name, runId, runDir };
  if (s.max_open_prs === 0) {
    return {
      ...common,
      evidencePath: '',
      verdict: 'skipped',
      reason: `sweep ${s.name}: max_open_prs is 0, so it may open no pull request; not run`,
      exitCode: 0,
      summaryMd: '',
    };
  }
  const existing = github ? await openSweepPr(github, s) : undefined;
  const branch = existing?.headRef ?? sweepBranch(s.name, now());

  await mkdir(runDir, { recursive: true });
  const baseline = await (deps.baseline ?? runBaseline)({
    repoDir: input.repoDir,
    baseRef: input.baseRef,
    config,
    runDir,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const stop = baselineStop(s, baseline);
  if (stop) return { ...common, ...(await recordBaselineStop(input, { runId, runDir, task, branch, baseline, stop, sweep: s })), branch };

  const counted = baseline.run?.counts;
  const res = await deps.runTask({
    ...(baseline.run ? { baseline: baseline.run } : {}),
    repoDir: input.repoDir,
    baseRef: input.baseRef,
    branch,
    ...(counted ? { baselineExecuted: counted.passed + counted.failed } : {}),
    task,
    config,
    model: deps.model,
    modelId: input.modelId,
    mode: 'fix',
    runId,
    runDir,
    worktreesDir: join(input.home, 'worktrees'),
    ...(input.repoFullName ? { repoFullName: input.repoFullName } : {}),
    ...(input.repoFullName ? await memoryForRun(deps.memory, input.repoFullName) : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onEvent ? { onEvent: (ev: RunEvent) => input.onEvent?.(s.name, ev) } : {}),
  });
  let evidence: Evidence = { ...res.evidence, ...(baseline.run ? { baseline: baseline.run } : {}) };
  const verified = isVerified(res);
  let reason = evidence.reason;
  let pr: SweepOutcome['pr'];

  if (!res.headSha || evidence.filesChanged.length === 0) {
    reason = `nothing to change: no pull request opened${existing ? ` (#${existing.number} left as it is)` : ''}`;
  } else if (!verified) {
    reason = `${evidence.reason} (not pushed: only verified sweep work is published)`;
  } else if (!github || !deps.workspace) {
    reason = `${evidence.reason}; committed on ${branch} (no GitHub target: not pushed)`;
  } else {
    pr = await publishSweep(
      s,
      input,
      { github, workspace: deps.workspace, ...(deps.branches ? { branches: deps.branches } : {}) },
      { branch, runId, result: res, evidence, baseline },
    );
    evidence = { ...evidence, pr: { number: pr.number, url: pr.url } };
    reason = `${evidence.reason}; ${pr.created ? 'opened' : 'updated'} #${pr.number}`;
  }
  const f = await finish(runDir, evidence, s, baseline, res.places);
  return { ...common, ...f, verdict: evidence.verdict, reason, exitCode: res.exitCode, branch, ...(pr ? { pr } : {}) };
}
