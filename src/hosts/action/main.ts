/**
 * The Action's orchestration (testable in-process): config, ports, then one flow by event —
 * issue_comment / issues / pull_request_review / pull_request_review_comment → the App's trigger and usecases; a `prompt` → a direct task; schedule or
 * `mode: sweep` → the configured sweeps; `mode: verify` on pull_request → `proofpr verify` and the check `proofpr/verified`.
 */
import { isAbsolute, relative } from 'node:path';
import { ActionInputError, type ActionInputs } from '../../config/action-inputs.js';
import { createAnthropicClient } from '../../model/anthropic.js';
import { resolveProvider } from '../../model/provider.js';
import type { ModelClient } from '../../model/model-client.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import type { RunTask } from '../../run/run-task-types.js';
import { runTask as realRunTask } from '../../run/run-task.js';
import type { BaselineRunner } from '../../usecases/sweep-baseline.js';
import type { ActionContext } from './context.js';
import type { RepoConfig } from '../../config/repo-config.js';
import { describeSandbox, enableSandbox, type EnableSandboxResult } from './enable-sandbox.js';
import { loadActionConfigFacts } from './load-config.js';
import { CONFIG_PATH, createGitHubPort } from '../../github/github-port.js';
import type { GitHubPort } from '../../github/port.js';
import { createTokenOctokit } from '../../github/token-octokit.js';
import { checkoutWorkspace } from '../shared/checkout-workspace.js';
import { issueFlow } from './issue-flow.js';
import { promptFlow } from './prompt-flow.js';
import { sweepFlow } from './sweep-flow.js';
import { verifyFlow } from './verify-flow.js';
import type { ActionResult } from './result.js';
import { heartbeatMs, startHeartbeat } from '../shared/heartbeat.js';
import { graphqlViewer, pushToken, type PushToken } from './push-token.js';

/** Events that may carry a command (comment, label, review): they go through the one intake, as in the App. */
export const REQUEST_EVENTS: ReadonlySet<string> = new Set([
  'issue_comment',
  'issues',
  'pull_request_review',
  'pull_request_review_comment',
]);

export interface ActionDeps {
  github?: GitHubPort;
  model?: ModelClient;
  runTask?: RunTask;
  workspace?: WorkspacePort;
  baseline?: BaselineRunner;
  /** Makes bubblewrap work on the runner before the run (default: enableSandbox with the real machine). */
  enableSandbox?: (setting: RepoConfig['sandbox']) => Promise<EnableSandboxResult>;
  /** Lines for the step's log (default: stdout). */
  log?: (line: string) => void;
  /** Which token pushes (default: decided from GITHUB_TOKEN, the token's prefix or its GraphQL identity). */
  pushToken?: () => Promise<PushToken>;
  /** The step's environment (GITHUB_TOKEN, PROOFPR_HEARTBEAT_MS); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** evidence_path (CONTRACT §9): relative to GITHUB_WORKSPACE when inside it, else absolute. */
export function workspacePath(workspace: string, file: string): string {
  const rel = relative(workspace, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

const sandboxOf = (deps: ActionDeps): NonNullable<ActionDeps['enableSandbox']> => deps.enableSandbox ?? ((s) => enableSandbox(s));

export async function runActionMain(ctx: ActionContext, inputs: ActionInputs, deps: ActionDeps = {}): Promise<ActionResult> {
  const env = deps.env ?? process.env;
  const log = deps.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  // A line at least every interval while a long step (setup, baseline, the model, tests, the CI wait) lasts.
  const heartbeat = startHeartbeat(log, { intervalMs: heartbeatMs(env) });
  try {
    return await actionFlow(ctx, inputs, deps, { env, log, heartbeat });
  } finally {
    heartbeat.stop();
  }
}

async function actionFlow(
  ctx: ActionContext,
  inputs: ActionInputs,
  deps: ActionDeps,
  io: { env: NodeJS.ProcessEnv; log: (line: string) => void; heartbeat: ReturnType<typeof startHeartbeat> },
): Promise<ActionResult> {
  const { log, heartbeat } = io;
  const octokit = deps.github ? undefined : createTokenOctokit({ token: inputs.githubToken, baseUrl: ctx.apiUrl });
  const github =
    deps.github ??
    createGitHubPort(octokit ?? createTokenOctokit({ token: inputs.githubToken, baseUrl: ctx.apiUrl }), {
      owner: ctx.owner,
      repo: ctx.repo,
      webUrl: ctx.serverUrl,
      configPath: isAbsolute(inputs.config) ? CONFIG_PATH : inputs.config,
    });
  // mode: verify needs no model and judges with the base branch's config, not the checkout's (the PR's own).
  if (inputs.mode === 'verify')
    return verifyFlow(ctx, github, { enableSandbox: sandboxOf(deps), log, evidencePath: (f) => workspacePath(ctx.workspace, f) });
  const { config } = await loadActionConfigFacts(ctx.workspace, inputs, github);
  // Said at the start: the sandbox state (after making bwrap work on a hosted runner) and, when none, why.
  const box = await sandboxOf(deps)(config.sandbox);
  for (const line of describeSandbox(box)) log(line);
  // The key comes from the input only (CONTRACT §9); ANTHROPIC_BASE_URL is the SDK's own endpoint variable.
  // PROOFPR_PROVIDER (the step's env) or the config's provider: picks Bedrock or Vertex, whose SDKs read their own credentials.
  const provider = resolveProvider(config.provider, io.env);
  const model =
    deps.model ?? createAnthropicClient(provider === 'anthropic' ? { apiKey: inputs.anthropicApiKey } : { provider, env: io.env });
  const runTask: RunTask = deps.runTask ?? realRunTask;
  const common = {
    github,
    model,
    // Each run's events name the step the heartbeat reports on.
    runTask: ((i) => runTask({ ...i, exitOnStuck: true, onEvent: (ev) => (i.onEvent?.(ev), heartbeat.event(ev)) })) as RunTask,
    modelId: inputs.model ?? ctx.modelEnv ?? config.model,
    evidencePath: (file: string) => workspacePath(ctx.workspace, file),
  };
  const viewer = octokit ? graphqlViewer(octokit) : async () => undefined;
  let token: Promise<PushToken> | undefined;
  const push = deps.pushToken ?? (() => (token ??= pushToken(inputs.githubToken, io.env, viewer)));
  const workspace = deps.workspace ?? checkoutWorkspace(ctx.workspace);
  const sweep = () => sweepFlow(ctx, config, { ...common, workspace, ...(deps.baseline ? { baseline: deps.baseline } : {}) });

  if (inputs.mode === 'sweep') return sweep();
  if (REQUEST_EVENTS.has(ctx.eventName)) return issueFlow(ctx, config, { ...common, pushToken: push, heartbeat, log });
  if (inputs.prompt) return promptFlow(ctx, config, inputs.prompt, { ...common, workspace });
  if (ctx.eventName === 'schedule') return sweep();
  if (ctx.eventName === 'workflow_dispatch')
    throw new ActionInputError('prompt', 'is required for workflow_dispatch (pass `prompt: ${{ inputs.prompt }}`), or set `mode: sweep`');
  throw new ActionInputError(
    'mode',
    `the ${ctx.eventName} event needs a \`prompt\` input or \`mode: sweep\` (comment triggers come from issue_comment, issues, pull_request_review and pull_request_review_comment events)`,
  );
}
