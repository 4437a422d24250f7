import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, call } from './helpers/context.js';
import { gitPathProblem } from '../../src/workspace/git-path-rules.js';

const repo = useRepo({ git: true });

/** What this machine's git says of the path: true when `git add` refuses it. */
function gitRefuses(rel: string): boolean {
  repo.write(rel, 'x\n');
  try {
    execFileSync('git', ['add', '--', rel], { cwd: repo.root, stdio: 'pipe' });
    return false;
  } catch {
    return true;
  } finally {
    execFileSync('rm', ['-rf', join(repo.root, rel.split('/')[0] ?? rel)]);
    execFileSync('git', ['rm', '-rq', '--cached', '--ignore-unmatch', '--', rel.split('/')[0] ?? rel], { cwd: repo.root });
  }
}

const refused = [
  '.GIT/config',
  '.git./hooks/x',
  'a/.git /x',
  'a/.Git',
  'GIT~1/x',
  'b/.git::$INDEX_ALLOCATION/x',
  'd\\.git\\x',
  'e/.git. . /x',
];
const accepted = ['src/a.ts', '.github/x.yml', '.gitignore', 'a/.gitkeep', 'git~2/x', 'CON', 'aux.c', 'a\\b', 'x.git/y', '.gitx/y'];

describe('paths git cannot commit', () => {
  it.each(refused)('git-path - Write of %s is refused, and git itself refuses the path', async (p) => {
    const r = await call(repo.ctx, 'Write', { file_path: p, content: 'x\n' });
    expect(r).toMatchObject({ isError: true, errorKind: 'git_path' });
    expect(r.forModel).toContain('git cannot commit this path');
    expect(existsSync(join(repo.root, p))).toBe(false);
    expect(gitRefuses(p)).toBe(true);
  });

  it.each(accepted)('git-path - %s is accepted, as git accepts it', async (p) => {
    expect(gitPathProblem(p)).toBeUndefined();
    expect(gitRefuses(p)).toBe(false);
  });

  it('git-path - Edit of a file Bash made at .GIT/config is refused too', async () => {
    repo.write('.GIT/config', 'a\n');
    await call(repo.ctx, 'Read', { file_path: '.GIT/config' });
    const r = await call(repo.ctx, 'Edit', { file_path: '.GIT/config', old_string: 'a', new_string: 'b' });
    expect(r).toMatchObject({ isError: true, errorKind: 'git_path' });
  });

  /** What gitPathProblem says of each path (a part of its message). */
  const named: Array<[title: string, said: Array<[path: string, part: string]>]> = [
    [
      'invisible characters macOS ignores make ".git" too (refused everywhere)',
      [
        ['a/.g\u200cit/x', 'macOS'],
        ['\ufeff.GIT', 'macOS'],
      ],
    ],
    [
      'empty, "." and ".." components are named',
      [
        ['a//b', 'empty component'],
        ['a/./b', '"."'],
        ['', 'empty'],
      ],
    ],
  ];
  it.each(named)('git-path - %s', (_title, said) => {
    for (const [path, part] of said) expect(gitPathProblem(path)).toContain(part);
  });
});
