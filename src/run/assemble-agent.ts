import { join } from 'node:path';
import type { AgentDeps, AgentTask } from '../agent/loop.js';
import { EventQueue } from '../agent/events.js';
import { createRunSpend } from '../agent/budget.js';
import { createContextManager, type ContextManagerOptions } from '../agent/context/index.js';
import { loadSkillBodies } from '../agent/context/skills.js';
import { createPolicy } from '../agent/permissions/create-policy.js';
import { readDenyPredicate } from '../agent/permissions/read-deny.js';
import { createHookRunner } from '../agent/hooks/runner.js';
import { createVerifier } from '../agent/verification/verifier.js';
import type { Verifier } from '../agent/verification/types.js';
import type { HookRunner } from '../agent/hooks/types.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import { createRegistry } from '../tools/registry.js';
import { defaultTools } from '../tools/index.js';
import { skillTool } from '../tools/skill.js';
import { FileState } from '../tools/file-state.js';
import { costUsd } from '../model/pricing.js';
import { logger } from '../log.js';
import { instructionsFromRef } from './instructions-from-ref.js';
import { detectRepoChecks } from '../detect/repo-checks.js';
import { projectContext } from '../agent/context/project-context.js';
import { commitMessage } from './commit-message.js';
import { extraTools } from './extra-tools.js';
import type { RunStep } from './run-step.js';
import type { RunTaskInput } from './run-task-types.js';

const log = logger('run-task');

const FIX_PROMPT =
  'Work on the task described in the system prompt, in this worktree. Explore before you edit, make the smallest change that fixes it, ' +
  'then run the tests after your last edit. When the work is done and the tests pass, stop and say briefly what you changed.';
const PLAN_PROMPT =
  'Read the code and write a plan for the task in the system prompt: what is wrong, which files change and how, and how to test it. Do not edit files.';

/** Config `thinking:` / `effort:` as the loop's per-request model settings (absent when neither is set). */
function modelSettingsOf(config: RunTaskInput['config']): Pick<AgentDeps, 'modelSettings'> {
  const thinking = config.thinking ? { thinking: { budgetTokens: config.thinking.budget_tokens } } : {};
  const effort = config.effort ? { effort: config.effort } : {};
  return config.thinking || config.effort ? { modelSettings: { ...thinking, ...effort } } : {};
}

/** Everything runAgent needs for this run. */
export interface AssembledAgent {
  task: AgentTask;
  deps: AgentDeps;
}

/**
 * Step 3: the agent for this task: the permission policy, the hooks, the verifier (not in plan mode),
 * the toolbox (with the Skill tool when the repository has skills) and the context manager. The
 * instructions and skills are read once, from `instructionsRef` when given, else from the worktree.
 */
export async function assembleAgent(step: RunStep): Promise<AssembledAgent> {
  const { input, settings, ws, exec } = step;
  const { runDir } = input;
  const { wt } = ws;
  const plan = input.mode === 'plan';
  const testCommand = settings.test.command;
  const withTestCommand = testCommand ? { testCommand } : {};
  const withSignal = input.signal ? { signal: input.signal } : {};
  const instructionsRoot = input.instructionsRef
    ? await instructionsFromRef(wt.path, input.instructionsRef, join(ws.runTmp, 'instructions'))
    : wt.path;
  const skills = await loadSkillBodies(instructionsRoot, log);
  const events = new EventQueue();
  // The repository's other checks (lint, type check, e2e…): the evidence lists those this run did not run.
  const checks = await detectRepoChecks(wt.path);
  if (checks.length) events.push({ type: 'repo_checks', checks });
  const hooks = createHookRunner({ config: settings.hooks, exec, root: wt.path, logger: log, onEvent: events.push });
  const builtIn = skills.length ? [...defaultTools(), skillTool(skills) as ToolDefinition] : defaultTools();
  // One budget for every conversation of the run: the agent's and each sub-agent's requests draw from it.
  const spend = createRunSpend(settings.limits);
  const tools = [...builtIn, ...(await extraTools(step, hooks, events, spend))];
  const toolbox = createRegistry(tools);
  const policy = await createPolicy({
    root: wt.path,
    mode: plan ? 'plan' : 'default',
    allow: settings.permissions.allow,
    deny: settings.permissions.deny,
    ...withTestCommand,
    writableWorkflows: settings.permissions.writable_workflows,
    writable: settings.permissions.writable,
    gitDirs: [wt.gitDir],
    tools: toolbox,
  });
  const verifier = plan ? undefined : verifierFor(step, hooks, events);
  const context = await createContextManager({
    root: wt.path,
    toolNames: toolbox.names(),
    task: input.task,
    ...withTestCommand,
    mode: input.mode,
    gatesEnabled: Object.entries(settings.gates).flatMap(([k, v]) => (v === true ? [k] : [])),
    model: input.modelId,
    instructionsRoot,
    skills: skills.map(({ name, description, path }) => ({ name, description, path })),
    ...(input.memoryIndex ? { memoryIndex: input.memoryIndex } : {}),
    ...compactionHooks(hooks, wt.path),
    logger: log,
  });
  const deps: AgentDeps = {
    model: input.model,
    modelId: input.modelId,
    toolbox,
    policy,
    hooks,
    ...(verifier ? { verifier } : {}),
    context,
    toolContext: {
      root: wt.path,
      runDir,
      fileState: new FileState(),
      exec,
      logger: log,
      readDeny: readDenyPredicate(wt.path, settings.permissions.deny),
    },
    budget: settings.limits,
    spend,
    costOf: (u) => costUsd(input.modelId, u),
    maxStopBlocks: settings.gates.max_stop_blocks,
    ...modelSettingsOf(input.config),
    branch: input.branch,
    events,
    ...withSignal,
  };
  // Project context (OS, git status, recent commits) joins the first message, read once at the start.
  const project = await projectContext(wt.path);
  return { task: { prompt: `${plan ? PLAN_PROMPT : FIX_PROMPT}\n\n${project}`, ...imagesOf(input.task) }, deps };
}

/** The task's attached images as the first message's image blocks. */
function imagesOf(task: RunTaskInput['task']): Pick<AgentTask, 'images'> {
  const images = (task.images ?? []).map((i) => ({
    type: 'image' as const,
    source: { type: 'base64' as const, media_type: i.mediaType, data: i.data },
  }));
  return images.length ? { images } : {};
}

/** PreCompact hooks run before each summary, PostCompact after it; their outcomes are recorded as hook events, none blocks it. */
function compactionHooks(hooks: HookRunner, cwd: string): Pick<ContextManagerOptions, 'beforeSummary' | 'afterCompact'> {
  return {
    beforeSummary: async () => void (await hooks.run('PreCompact', { hook_event_name: 'PreCompact', cwd })),
    afterCompact: async (r) =>
      void (await hooks.run('PostCompact', {
        hook_event_name: 'PostCompact',
        cwd,
        compaction: { kind: r.kind, before_tokens: r.beforeTokens, after_tokens: r.afterTokens },
      })),
  };
}

/** The verifier of a fix run. */
function verifierFor({ input, settings, ws, exec }: RunStep, hooks: HookRunner, events: EventQueue): Verifier {
  const { config, runDir } = input;
  const { wt } = ws;
  return createVerifier({
    root: wt.path,
    gitDir: wt.gitDir,
    ...(input.baselineExecuted !== undefined ? { baselineExecuted: input.baselineExecuted } : {}),
    ...(input.verifierBaseline ? { baseline: input.verifierBaseline } : {}),
    runDir,
    settings,
    exec,
    baseSha: wt.baseSha,
    hooks,
    onEvent: events.push,
    logger: log,
    scratchDir: join(ws.runTmp, 'tmp'),
    taskKind: input.task.kind,
    ...(input.reproduce ? { reproduce: input.reproduce } : {}),
    // The final run tests the commit that gets pushed: written with the run's own message and identity.
    commit: { message: commitMessage(input.task), identity: config.commit, ...(input.coAuthor ? { coAuthor: input.coAuthor } : {}) },
    ...(input.signal ? { signal: input.signal } : {}),
  });
}
