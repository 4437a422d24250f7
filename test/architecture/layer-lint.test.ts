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
    ['src/agent/loop.ts', 'may not import', '../usecases/fix-issue.js'],
    ['src/tools/read.ts', 'may not import', '../github/port.js'],
    ['src/github/authorize.ts', 'may not import', '../usecases/ports.js'],
    ['src/github/rest/pulls.ts', 'may not import', '../../jobs/queue.js'],
    ['src/github/pull-request.ts', 'may not import', '../hosts/shared/github-for.js'],
    ['src/usecases/fix-issue.ts', 'may not import', '../jobs/run-store.js'],
    ['src/run/run-task.ts', 'may not import', '../usecases/ports.js'],
    ['src/jobs/worker.ts', 'may not import', '../hosts/shared/queue-names.js'],
    ['src/hosts/action/main.ts', 'may not import', '../probot/server.js'],
    ['src/hosts/action/main.ts', 'may not import', '../cli/usage-error.js'],
    ['src/hosts/probot/app.ts', 'may not import', '../cli/worker-command.js'],
    ['src/hosts/probot/app.ts', 'may not import', '../action/result.js'],
    ['src/hosts/cli/worker-command.ts', 'may not import', '../probot/create-proofpr.js'],
    ['src/hosts/cli/sweep-command.ts', 'may not import', '../action/main.js'],
    ['src/hosts/shared/github-for.ts', 'may not import', '../probot/app.js'],
    ['src/tools/read.ts', 'may not import', '../agent/loop.js'],
    ['src/model/scripted.ts', 'may not import', '../agent/context/cache.js'],
    ['src/workspace/git.ts', 'may not import', '../agent/verification/verifier.js'],
    ['src/workspace/sandbox.ts', 'may not import', '../tools/read.js'],
    ['src/usecases/fix-issue.ts', 'may import', '../github/port.js'],
    ['src/hosts/action/main.ts', 'may import', '../shared/checkout-workspace.js'],
    ['src/hosts/probot/create-proofpr.ts', 'may import', '../shared/server-env.js'],
    ['src/hosts/cli/serve.ts', 'may import', '../probot/server.js'],
    ['src/github/github-port.ts', 'may import', '../config/action-inputs.js'],
  ])('lint - %s %s %s', async (file, rule, spec) => {
    expect(await restricted(file, spec)).toBe(rule === 'may not import');
  });
});
