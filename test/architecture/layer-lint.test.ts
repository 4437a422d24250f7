/** The layer arrows are lint rules (eslint.config.js): each forbidden import is reported, each allowed one is not. */
import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: resolve('.') });

async function restricted(file: string, specifier: string): Promise<boolean> {
  const [res] = await eslint.lintText(`import { x } from '${specifier}';\nexport const y = x;\n`, { filePath: resolve(file) });
  return (res?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

describe('architecture - layer lint rules', () => {
  it.each([
    ['src/agent/loop.ts', '../usecases/fix-issue.js'],
    ['src/tools/read.ts', '../github/port.js'],
    ['src/github/authorize.ts', '../usecases/ports.js'],
    ['src/github/rest/pulls.ts', '../../jobs/queue.js'],
    ['src/github/pull-request.ts', '../hosts/shared/github-for.js'],
    ['src/usecases/fix-issue.ts', '../jobs/run-store.js'],
    ['src/run/run-task.ts', '../usecases/ports.js'],
    ['src/jobs/worker.ts', '../hosts/shared/queue-names.js'],
    ['src/hosts/action/main.ts', '../probot/server.js'],
    ['src/hosts/action/main.ts', '../cli/usage-error.js'],
    ['src/hosts/probot/app.ts', '../cli/worker-command.js'],
    ['src/hosts/probot/app.ts', '../action/result.js'],
    ['src/hosts/cli/worker-command.ts', '../probot/create-proofpr.js'],
    ['src/hosts/cli/sweep-command.ts', '../action/main.js'],
    ['src/hosts/shared/github-for.ts', '../probot/app.js'],
    ['src/tools/read.ts', '../agent/loop.js'],
    ['src/model/scripted.ts', '../agent/context/cache.js'],
    ['src/workspace/git.ts', '../agent/verification/verifier.js'],
    ['src/workspace/sandbox.ts', '../tools/read.js'],
  ])('lint - %s may not import %s', async (file, spec) => {
    expect(await restricted(file, spec)).toBe(true);
  });

  it.each([
    ['src/usecases/fix-issue.ts', '../github/port.js'],
    ['src/hosts/action/main.ts', '../shared/checkout-workspace.js'],
    ['src/hosts/probot/create-proofpr.ts', '../shared/server-env.js'],
    ['src/hosts/cli/serve.ts', '../probot/server.js'],
    ['src/github/github-port.ts', '../config/action-inputs.js'],
  ])('lint - %s may import %s', async (file, spec) => {
    expect(await restricted(file, spec)).toBe(false);
  });
});
