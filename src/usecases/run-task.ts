import { mkdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { homedir, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { runAgent, type RunResult } from '../agent/loop.js';
import { EventQueue, stamp, type RunEvent, type Verdict } from '../agent/events.js';
import { createContextManager } from '../agent/context/index.js';
import { loadSkills } from '../agent/context/skills.js';
import { skillTool } from '../agent/context/skill-tool.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import { createPolicy } from '../agent/permissions/create-policy.js';
import { readDenyPredicate } from '../agent/permissions/read-deny.js';
import { createHookRunner } from '../agent/hooks/runner.js';
import { createVerifier } from '../agent/verification/verifier.js';
import { Ledger, createTranscriptWriter } from '../agent/evidence/ledger.js';
import { buildEvidence } from '../agent/evidence/evidence.js';
import { exitCodeFor } from '../agent/evidence/types.js';
import { writeRunFolder } from './run-folder.js';
import { treeHash } from '../workspace/tree-hash.js';
import { TreeMismatchError } from '../workspace/errors.js';
import { createRegistry } from '../tools/registry.js';
import { defaultTools } from '../tools/index.js';
import { FileState } from '../tools/file-state.js';
import { createExec } from '../workspace/exec.js';
import { createWorktree, type Worktree } from '../workspace/worktree.js';
import { commitWork, wipCommit } from '../workspace/publish.js';
import { diffText, filesChanged } from '../workspace/diff-stat.js';
import { costUsd } from '../model/pricing.js';
import { logger } from '../log.js';
import { knownSecrets } from './secrets.js';
import { instructionsFromRef } from './instructions-from-ref.js';
import type { RunTaskInput, RunTaskResult } from './run-task-types.js';

const log = logger('run-task');

const FIRST_MESSAGE =
  'Work on the task described in the system prompt, in this worktree. Explore before you edit, make the smallest change that fixes it, ' +
  'then run the tests after your last edit. When the work is done and the tests pass, stop and say briefly what you changed.';

function verdictOf(r: RunResult): Verdict {
  return r.status === 'completed' ? 'verified' : r.status;
}

/**
 * Prepare a worktree, run the agent under policy and gates, write the run folder, and commit exactly the
 * verified tree (or a WIP commit of unfinished work). Evidence is written on every exit path.
 */
export async function runTask(input: RunTaskInput): Promise<RunTaskResult> {
  const { config, runDir } = input;
  await mkdir(runDir, { recursive: true });
  const secrets = knownSecrets(process.env, input.gitToken ? [input.gitToken] : []);
  const transcript = createTranscriptWriter(join(runDir, 'transcript.jsonl'), secrets);
  const ledger = new Ledger();
  const record = (ev: RunEvent) => {
    ledger.append(ev);
    transcript.write(ev);
    try {
      input.onEvent?.(ev);
    } catch (e) {
      log.warn({ err: (e as Error).message }, 'onEvent listener threw');
    }
  };
  const startedAt = new Date().toISOString();
  let wt: Worktree | undefined;
  let dispose: (() => Promise<void>) | undefined;
  let runTmp: string | undefined;
  let verdict: Verdict = 'error';
  let reason = 'internal error before the run started';
  let headSha: string | undefined;
  let wip = false;
  let sandbox: 'bwrap' | 'none' | undefined;
  let changes: Awaited<ReturnType<typeof filesChanged>> = [];
  let diff = '';
  let keep = false;
  const coAuthor = input.coAuthor ? { coAuthor: input.coAuthor } : {};

  try {
    const bare = isBareRepo(input.repoDir);
    wt = await createWorktree({
      repoDir: input.repoDir,
      baseRef: input.baseRef ?? 'HEAD',
      branch: input.branch,
      worktreesDir: input.worktreesDir,
      runId: input.runId,
      ...(input.continueBranch ? { continueBranch: true } : {}),
      ...(input.gitToken ? { token: input.gitToken } : {}),
      pool: input.pool ?? (!input.keepWorktree && bare),
      // A checkout's installed dependencies (npm ci before an Action step) reach the agent's test runs.
      ...(bare ? {} : { linkDirs: DEPENDENCY_DIRS }),
      logger: log,
    });
    const git = { gitDir: wt.gitDir, exclude: config.test.report ? [config.test.report] : [] };
    runTmp = await mkdtemp(join(tmpdir(), `proofpr-${input.runId}-`));
    // The sandbox hides proofpr's state (other runs, mirrors, the database), the real HOME and the source
    // repository's git dir (a CI checkout keeps its token there); the worktree and its git dir stay visible.
    const hidePaths = [dirname(input.worktreesDir), dirname(runDir), homedir(), ...(bare ? [] : [gitCommonDir(input.repoDir)])];
    const execBase = { root: wt.path, runTmp, sandbox: config.sandbox, extraEnvNames: config.env, gitDir: wt.gitDir, hidePaths, logger: log };
    if (config.setup.command && input.mode === 'fix') await runSetup(config.setup.command, config.setup.timeout_min, execBase);
    const execHandle = await createExec(execBase);
    dispose = execHandle.dispose;
    sandbox = execHandle.sandbox;
    const exec = execHandle.exec;
    record(stamp({ type: 'run_start', runId: input.runId, task: { kind: input.task.kind, title: input.task.title, ...(input.task.issue !== undefined ? { issue: input.task.issue } : {}) }, model: input.modelId, root: wt.path, sandbox }));

    const plan = input.mode === 'plan';
    const testCommand = config.test.command;
    const policy = await createPolicy({
      root: wt.path,
      mode: plan ? 'plan' : 'default',
      allow: config.permissions.allow,
      deny: config.permissions.deny,
      ...(testCommand ? { testCommand } : {}),
      writableWorkflows: config.permissions.writable_workflows,
      gitDirs: [wt.gitDir],
    });
    const hooks = createHookRunner({ config: config.hooks, exec, root: wt.path, logger: log });
    const events = new EventQueue();
    const verifier = plan ? undefined : createVerifier({ root: wt.path, gitDir: wt.gitDir, ...(input.baselineExecuted !== undefined ? { baselineExecuted: input.baselineExecuted } : {}), runDir, config, exec, baseSha: wt.baseSha, hooks, onEvent: events.push, logger: log, scratchDir: join(runTmp, 'tmp'), ...(input.signal ? { signal: input.signal } : {}) });
    const instructionsRoot = input.instructionsRef ? await instructionsFromRef(wt.path, input.instructionsRef, join(runTmp, 'instructions')) : wt.path;
    const skills = await loadSkills(instructionsRoot, log);
    const toolbox = createRegistry(skills.length ? [...defaultTools(), skillTool as ToolDefinition] : defaultTools());
    const gatesEnabled = Object.entries(config.gates).flatMap(([k, v]) => (v === true ? [k] : []));
    const context = await createContextManager({
      root: wt.path,
      toolNames: toolbox.schemas().map((s) => s.name),
      task: input.task,
      ...(testCommand ? { testCommand } : {}),
      mode: input.mode,
      gatesEnabled,
      model: input.modelId,
      instructionsRoot,
      logger: log,
    });

    const gen = runAgent(
      { prompt: plan ? 'Read the code and write a plan for the task in the system prompt: what is wrong, which files change and how, and how to test it. Do not edit files.' : FIRST_MESSAGE },
      {
        model: input.model,
        modelId: input.modelId,
        toolbox,
        policy,
        hooks,
        ...(verifier ? { verifier } : {}),
        context,
        toolContext: { root: wt.path, runDir, fileState: new FileState(), exec, logger: log, readDeny: readDenyPredicate(wt.path, config.permissions.deny) },
        budget: { maxTurns: config.max_turns, maxCostUsd: config.max_cost_usd, timeoutMs: config.timeout_min * 60_000 },
        costOf: (u) => costUsd(input.modelId, u),
        maxStopBlocks: config.gates.max_stop_blocks,
        branch: input.branch,
        events,
        ...(input.signal ? { signal: input.signal } : {}),
      },
    );
    let result: RunResult;
    for (;;) {
      const n = await gen.next();
      if (n.done) {
        result = n.value;
        break;
      }
      record(n.value);
    }
    verdict = verdictOf(result);
    reason = result.reason;
    const endTree = await treeHash(wt.path, git).catch(() => undefined);

    changes = await filesChanged(wt.path, wt.baseSha, git);
    diff = await diffText(wt.path, wt.baseSha, 200_000, git);
    if (plan) {
      verdict = 'unverified';
      reason = `plan only (read-only run): nothing was changed, so nothing was verified`;
    } else if (changes.length === 0) {
      // A sweep with nothing to change succeeded; a fix that changed nothing did not fix anything.
      if (input.task.kind !== 'sweep' && verdict === 'verified') verdict = 'unverified';
      reason = `no changes: ${reason}`;
    } else if (verdict === 'verified') {
      const tested = buildEvidence(ledger.events(), facts()).finalTreeHash ?? endTree;
      try {
        const c = await commitWork({ worktree: wt.path, message: commitMessage(input), identity: config.commit, ...coAuthor, ...git, ...(tested ? { expectedTreeHash: tested } : {}) });
        if ('sha' in c) headSha = c.sha;
      } catch (e) {
        if (!(e instanceof TreeMismatchError)) throw e;
        verdict = 'unverified';
        reason = `the files changed after the final test run, so the tested tree is not the tree on disk (${e.message})`;
      }
    }
    if (!plan && !headSha && changes.length > 0) await saveWip();
  } catch (e) {
    const err = e as Error;
    verdict = e instanceof SetupError ? 'aborted' : 'error';
    reason = e instanceof SetupError ? err.message : `internal error: ${err.message}`;
    log.error({ err: err.message }, 'run failed');
    record(stamp({ type: 'error', kind: 'internal', message: err.message }));
    // Never lose work: try a WIP commit of whatever is in the worktree.
    if (wt && input.mode === 'fix') await saveWip();
  }

  /** Commit unverified work as WIP (config pr.wip_commit); when that fails, keep the worktree instead. */
  async function saveWip(): Promise<void> {
    if (!wt) return;
    if (!config.pr.wip_commit) {
      keep = true;
      reason = `${reason} (work left in the worktree ${wt.path}: pr.wip_commit is off)`;
      return;
    }
    try {
      const c = await wipCommit({ worktree: wt.path, message: commitMessage(input), identity: config.commit, ...coAuthor, gitDir: wt.gitDir });
      if ('sha' in c) {
        headSha = c.sha;
        wip = true;
      }
    } catch (e) {
      keep = true;
      reason = `${reason} (the WIP commit failed: ${(e as Error).message}; the work is kept in ${wt.path})`;
    }
  }

  function facts() {
    return {
      runId: input.runId,
      startedAt,
      endedAt: new Date().toISOString(),
      verdict,
      reason,
      task: { kind: input.task.kind, title: input.task.title, ...(input.task.issue !== undefined ? { issue: input.task.issue } : {}), ...(input.task.sweep ? { sweep: input.task.sweep } : {}) },
      repo: { ...(input.repoFullName ? { fullName: input.repoFullName } : { path: input.repoDir }), baseSha: wt?.baseSha ?? '', branch: input.branch, ...(headSha ? { headSha } : {}) },
      filesChanged: changes,
      ...(sandbox ? { sandbox } : {}),
      model: input.modelId,
    };
  }

  record(stamp({ type: 'run_end', verdict, reason }));
  try {
    const written = await writeRunFolder(runDir, buildEvidence(ledger.events(), facts()), ledger.events(), diff, secrets);
    return { evidence: written.evidence, exitCode: exitCodeFor(verdict), runDir, branch: input.branch, ...(headSha ? { headSha } : {}), wip, summaryMd: written.summaryMd };
  } finally {
    await transcript.close().catch(() => undefined);
    await dispose?.().catch(() => undefined);
    if (runTmp) await rm(runTmp, { recursive: true, force: true }).catch(() => undefined);
    if (wt && !input.keepWorktree && !keep) await wt.remove().catch((e: Error) => log.warn({ err: e.message }, 'worktree removal failed'));
  }
}

const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv', 'vendor'];

/**
 * `setup.command` (e.g. `npm ci`): run by the harness before the agent, in the worktree at the base commit,
 * with network but otherwise the same sandbox and scrubbed environment. Its output goes to the run folder.
 */
async function runSetup(command: string, timeoutMin: number, base: Parameters<typeof createExec>[0] & { runTmp: string }): Promise<void> {
  const h = await createExec({ ...base, network: true });
  try {
    const r = await h.exec({ command, cwd: base.root, timeoutMs: timeoutMin * 60_000 });
    if (r.exitCode !== 0) {
      const tail = r.output.slice(-1500);
      throw new SetupError(`setup.command \`${command}\` ${r.timedOut ? `timed out after ${timeoutMin} min` : `exited ${r.exitCode}`}; fix it in .github/proofpr.yml. Last output:\n${tail}`);
    }
  } finally {
    await h.dispose();
  }
}

class SetupError extends Error {}

function gitCommonDir(dir: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: dir, encoding: 'utf8' }).trim();
  } catch {
    return join(dir, '.git');
  }
}

function isBareRepo(dir: string): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--is-bare-repository'], { cwd: dir, encoding: 'utf8' }).trim() === 'true';
  } catch {
    return false;
  }
}

function commitMessage(input: RunTaskInput): string {
  const t = input.task;
  const subject = t.kind === 'issue' && t.issue !== undefined ? `Fix #${t.issue}: ${t.title}` : t.kind === 'sweep' ? `Sweep ${t.sweep ?? ''}: ${t.title}` : t.title;
  return `${subject.slice(0, 72)}\n\nMade by proofpr; the run's evidence is in the pull request body.`;
}
