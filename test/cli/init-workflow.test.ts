/** `init --workflow`: the install step fits the lock file present (src/hosts/cli/init-command.ts). */
import { describe, expect, it } from '@jest/globals';
import { renderInitWorkflow, workflowInstall } from '../../src/hosts/cli/init-command.js';

const test = (command: string) => ({ command, why: 'w' });

describe('init --workflow: the install step', () => {
  it.each([
    ['npm with package-lock.json', { setup: { command: 'npm ci', tool: 'npm', why: 'w' }, test: test('npm test') }, 'npm ci'],
    ['npm without a lock file', { test: test('npm test') }, 'npm install'],
    [
      'pnpm with its lock file',
      { setup: { command: 'pnpm install --frozen-lockfile', tool: 'pnpm', why: 'w' }, test: test('pnpm test') },
      'corepack enable && pnpm install --frozen-lockfile',
    ],
    ['pnpm without a lock file', { test: test('pnpm test') }, 'corepack enable && pnpm install'],
    [
      'yarn berry',
      { setup: { command: 'yarn install --immutable', tool: 'yarn-berry', why: 'w' } },
      'corepack enable && yarn install --immutable',
    ],
    ['bun without a lock file', { test: test('bun run test') }, 'bun install'],
  ])('%s: %s', (_t, detected, install) => {
    expect(workflowInstall({ notes: [], ...detected })).toBe(install);
    const wf = renderInitWorkflow({ notes: [], ...detected });
    expect(wf).toContain(`      - run: ${install}\n`);
    if (install !== 'npm ci') expect(wf).not.toContain('run: npm ci');
  });

  it('a project that is not Node: no Node steps and no install (proofpr runs setup.command itself)', () => {
    const wf = renderInitWorkflow({ notes: [], test: test('python -m pytest') });
    expect(wf).not.toContain('setup-node');
    expect(wf).not.toMatch(/run: (npm|pnpm|yarn|bun) /);
  });
});
