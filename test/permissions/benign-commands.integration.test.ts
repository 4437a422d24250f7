import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { rmSync } from 'node:fs';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import { makePolicyRepo } from './fixture-repo.js';

/* Benign commands the attack corpus's benign half found blocked (issue 23), and their dangerous neighbours. */

let repo: { root: string; outside: string };
let policy: Awaited<ReturnType<typeof createPolicy>>;

beforeAll(async () => {
  repo = makePolicyRepo();
  policy = await createPolicy({ root: repo.root, mode: 'default', allow: [], deny: [] });
});
afterAll(() => rmSync(repo.outside, { recursive: true, force: true }));

const decide = async (command: string): Promise<string> => (await policy.check('Bash', { command })).behavior;

describe('benign commands are allowed', () => {
  it.each([
    "sed -n ':a;N;$!ba;s/\\n/ /g;p' README.md",
    "sed ':a;N;$!ba;s/\\n/,/g' data.csv",
    "sed -n '/start/,/end/{p;b};$p' README.md",
    "sed -e ':loop' -e 's/aa/a/;t loop' README.md",
    'readlink link-inside.ts',
    'readlink -f link-inside.ts',
    'git ls-files -o -i --exclude-standard',
    'git ls-files -o --exclude-standard',
    'git status -uno',
    'git status -u',
    'git grep -o -n export -- src',
  ])('benign - %s is allowed', async (command) => {
    expect(await decide(command)).toBe('allow');
  });

  it.each([
    "sed -n ':a e touch /tmp/x' README.md",
    "sed 'ba e touch /tmp/x' README.md",
    "sed ':a;e touch /tmp/x' README.md",
    "sed -n ':a;N;$!ba;w out.txt' README.md",
    "sed 's/a/b/e' README.md",
    'git format-patch -o /tmp/x HEAD~1',
  ])('benign - its dangerous neighbour %s is still refused', async (command) => {
    expect(await decide(command)).toBe('deny');
  });
});
