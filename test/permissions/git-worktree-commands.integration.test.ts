import { describe, expect, it } from '@jest/globals';
import { makePolicyRepo } from './fixture-repo.js';
import { usePolicies } from '../kit/walls-policy.js';

/*
 * Over-blocks of the Bash policy (issue 37): git commands that only read, or only change worktree files
 * and the agent's own git (status in every documented spelling of its options; restore, checkout --
 * <path>, stash), and their dangerous neighbours. The allowed list is made by a rule: each documented
 * option of `git status` (git-status(1): -s -b --show-stash --porcelain[=v1|v2] --long -v
 * -u[mode] --untracked-files[=no|normal|all] --ignored[=traditional|no|matching] -z --column[=opts]
 * --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames[=n]) alone and in
 * the pair the issue names; each form of restore / checkout -- <path> / stash (push, list, show, pop,
 * apply, drop, with and without -m) from their manuals. A refused command must always say why.
 */

const { policy, plan } = usePolicies(() => makePolicyRepo().root, { policy: {}, plan: { mode: 'plan' } });

const STATUS_OPTIONS = [
  '-s',
  '--short',
  '-b',
  '--branch',
  '--show-stash',
  '--porcelain',
  '--porcelain=v1',
  '--porcelain=v2',
  '--long',
  '-v',
  '-u',
  '-uall',
  '-unormal',
  '-uno',
  '--untracked-files',
  '--untracked-files=all',
  '--untracked-files=normal',
  '--untracked-files=no',
  '--ignored',
  '--ignored=traditional',
  '--ignored=matching',
  '--ignored=no',
  '-z',
  '--column',
  '--column=always',
  '--no-column',
  '--ahead-behind',
  '--no-ahead-behind',
  '--renames',
  '--no-renames',
  '--find-renames',
  '--find-renames=50',
];

export const ALLOWED = [
  ...STATUS_OPTIONS.map((o) => `git status ${o}`),
  'git status --porcelain=v1 --untracked-files=all',
  'git status --porcelain=v2 -z --branch -uall',
  'git status -- src',
  'git restore src/a.ts',
  'git restore -- src/a.ts',
  'git restore --staged src/a.ts',
  'git restore --staged --worktree src/a.ts',
  'git restore -s HEAD src/a.ts',
  'git restore --source=HEAD~1 -- src/a.ts',
  'git restore .',
  'git checkout -- src/a.ts',
  'git checkout HEAD -- src/a.ts',
  'git checkout .',
  'git stash',
  'git stash push',
  'git stash push -m wip',
  'git stash -m wip',
  'git stash push -- src/a.ts',
  'git stash -u',
  'git stash list',
  'git stash show',
  'git stash show -p stash@{0}',
  'git stash pop',
  'git stash apply',
  'git stash apply stash@{0}',
  'git stash drop',
];

const REFUSED = [
  'git restore /etc/passwd',
  'git restore ../outside-secret.txt',
  'git checkout -- ../outside-secret.txt',
  'git restore .github/workflows/ci.yml',
  'git checkout -- .git/hooks/pre-commit',
  'git restore --source=HEAD~1 -- .github/workflows/ci.yml',
  'git checkout main',
  'git restore -p src/a.ts',
  'git stash clear',
  'git stash push -- .github/workflows/ci.yml',
];

describe('git commands that change only the worktree and the agent`s own git', () => {
  it('allows every documented spelling of status, restore, checkout -- <path> and stash', async () => {
    const refused: string[] = [];
    for (const command of ALLOWED) {
      const d = await policy.check('Bash', { command });
      if (d.behavior !== 'allow') refused.push(`${command} → ${d.behavior}: ${'reason' in d ? d.reason : ''}`);
    }
    process.stdout.write(`over-block: ${ALLOWED.length} commands, ${refused.length} refused\n${refused.join('\n')}\n`);
    expect(refused).toEqual([]);
  });

  it.each(REFUSED)('still refuses %s, and says why', async (command) => {
    const d = await policy.check('Bash', { command });
    expect(d.behavior).not.toBe('allow');
    expect('reason' in d ? d.reason : '').toMatch(/\w{4,}/);
  });

  it('plan mode still refuses the writing forms', async () => {
    for (const command of ['git restore src/a.ts', 'git checkout -- src/a.ts', 'git stash', 'git stash pop'])
      expect({ command, behavior: (await plan.check('Bash', { command })).behavior }).toEqual({ command, behavior: 'deny' });
    expect((await plan.check('Bash', { command: 'git status --porcelain=v1 --untracked-files=all' })).behavior).toBe('allow');
  });

  it('a Bash write to a path git cannot commit (a look-alike .git) is refused, with the reason', async () => {
    const writes = [
      'echo x > .GIT/config',
      'echo x > .git./config',
      "echo x > '.git /config'",
      'cp src/a.ts GIT~1/x',
      'mkdir .Git',
      "tee '.git::$INDEX_ALLOCATION/x' < README.md",
      'sed -n p README.md > sub/.gIt/hooks/pre-commit',
    ];
    const allowed: string[] = [];
    for (const command of writes) {
      const d = await policy.check('Bash', { command });
      if (d.behavior === 'allow') allowed.push(command);
      else expect({ command, reason: d.reason }).toEqual({ command, reason: expect.stringMatching(/git|outside|refus|not/i) });
    }
    expect(allowed).toEqual([]);
  });
});
