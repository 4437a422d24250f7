/**
 * The runner's own variables (CONTRACT §2), read once: event name and payload, repository, workspace,
 * API and server URLs, the ref, and where the run folders go. Credentials are not here (they are inputs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ActionInputError } from '../../config/action-inputs.js';

export interface ActionContext {
  eventName: string;
  payload: Record<string, unknown>;
  owner: string;
  repo: string;
  workspace: string;
  apiUrl: string;
  serverUrl: string;
  /** The branch the workflow runs on (GITHUB_REF refs/heads/…), when it is a branch. */
  refBranch?: string;
  /** A unique id for this workflow run (GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT), used as the delivery id. */
  runKey: string;
  /** PROOFPR_HOME, else $RUNNER_TEMP/proofpr, else <workspace>/.proofpr: runs/ and worktrees/ live here. */
  home: string;
  outputFile?: string;
  summaryFile?: string;
  /** PROOFPR_MODEL (CONTRACT §2): between the `model` input and the config's model. */
  modelEnv?: string;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new ActionInputError(name, `is not set: proofpr's Action runs inside a GitHub Actions job (the runner sets ${name})`);
  return v;
}

export function readActionContext(env: NodeJS.ProcessEnv): ActionContext {
  const eventName = required(env, 'GITHUB_EVENT_NAME');
  const full = required(env, 'GITHUB_REPOSITORY');
  const [owner, repo, ...rest] = full.split('/');
  if (!owner || !repo || rest.length > 0) throw new ActionInputError('GITHUB_REPOSITORY', `${JSON.stringify(full)} is not owner/name`);
  const workspace = resolve(required(env, 'GITHUB_WORKSPACE'));
  if (!existsSync(join(workspace, '.git'))) {
    throw new ActionInputError(
      'GITHUB_WORKSPACE',
      `${workspace} is not a git checkout: add \`- uses: actions/checkout@v6\` (with persist-credentials: false) before this step`,
    );
  }
  let payload: Record<string, unknown> = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath && existsSync(eventPath)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(eventPath, 'utf8'));
      if (parsed && typeof parsed === 'object') payload = parsed as Record<string, unknown>;
    } catch (e) {
      throw new ActionInputError('GITHUB_EVENT_PATH', `the event file is not JSON: ${(e as Error).message}`);
    }
  }
  const ref = env.GITHUB_REF ?? '';
  const home = env.PROOFPR_HOME
    ? isAbsolute(env.PROOFPR_HOME)
      ? env.PROOFPR_HOME
      : join(workspace, env.PROOFPR_HOME)
    : env.RUNNER_TEMP
      ? join(env.RUNNER_TEMP, 'proofpr')
      : join(workspace, '.proofpr');
  return {
    eventName,
    payload,
    owner,
    repo,
    workspace,
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    ...(ref.startsWith('refs/heads/') ? { refBranch: ref.slice('refs/heads/'.length) } : {}),
    runKey: `${env.GITHUB_RUN_ID ?? Date.now()}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`,
    home,
    ...(env.GITHUB_OUTPUT ? { outputFile: env.GITHUB_OUTPUT } : {}),
    ...(env.GITHUB_STEP_SUMMARY ? { summaryFile: env.GITHUB_STEP_SUMMARY } : {}),
    ...(env.PROOFPR_MODEL ? { modelEnv: env.PROOFPR_MODEL } : {}),
  };
}
