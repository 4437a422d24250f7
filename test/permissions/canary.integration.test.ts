import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { makePolicyRepo } from './fixture-repo.js';

let repo: { root: string; outside: string };
let policy: PermissionPolicy;
let handle: ExecHandle;

beforeAll(async () => {
  repo = makePolicyRepo();
  policy = await createPolicy({ root: repo.root, mode: 'default', allow: ['Bash(npm test:*)'], deny: [], testCommand: 'npm test' });
  handle = await createExec({ root: repo.root, runTmp: join(repo.outside, 'run'), sandbox: 'auto' });
});
afterAll(() => handle.dispose());

/** What the loop does: check first, run only when allowed. */
async function bash(command: string): Promise<{ allowed: boolean; rule: string }> {
  const d = await policy.check('Bash', { command });
  if (d.behavior === 'allow') await handle.exec({ command, cwd: repo.root, timeoutMs: 10_000 });
  return { allowed: d.behavior === 'allow', rule: d.rule };
}

describe('canary', () => {
  it('canary - denied commands never create their canary file', async () => {
    const out = repo.outside;
    const attempts = [
      `npm test && touch canary-1`,
      `npm test; touch ${out}/canary-2`,
      `npm test | sh -c 'touch canary-3'`,
      `echo $(touch canary-4)`,
      `echo x > ${out}/canary-5`,
      `sh -c 'touch canary-6'`,
      `npm test\ntouch canary-7`,
      `git ls-files | xargs touch canary-8`,
      `find . -maxdepth 0 -exec touch canary-9 \\;`,
      `node -e "require('fs').writeFileSync('canary-10','')"`,
      `echo x > evil/canary-11`,
      `echo x | tee canary-12`,
      'echo x > .git/canary-13',
    ];
    for (const a of attempts) expect(await bash(a)).toMatchObject({ allowed: false });
    const names = [...readdirSync(repo.root), ...readdirSync(out), ...readdirSync(join(repo.root, '.git'))];
    expect(names.filter((n) => n.startsWith('canary'))).toEqual([]);
  });

  it('canary - the same wiring does run an allowed command (the check is not vacuous)', async () => {
    expect(await bash('echo x > canary-ok.txt')).toMatchObject({ allowed: true, rule: 'safe-list:echo' });
    expect(existsSync(join(repo.root, 'canary-ok.txt'))).toBe(true);
  });
});
