import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { harnessGitEnv } from '../workspace/harness-git-env.js';

const run = promisify(execFile);
const WANTED = /(^|\/)(AGENTS|CLAUDE)\.md$|^\.proofpr\/skills\/[^/]+\/SKILL\.md$/;

/**
 * Copy the instruction files (AGENTS.md / CLAUDE.md at any depth, .proofpr/skills/<name>/SKILL.md) of
 * `ref` into `dest`, so a PR head cannot rewrite the instructions its own follow-up run reads.
 */
export async function instructionsFromRef(repoDir: string, ref: string, dest: string): Promise<string> {
  const opts = { cwd: repoDir, env: harnessGitEnv(), maxBuffer: 64 * 1024 * 1024 };
  const { stdout } = await run('git', ['ls-tree', '-r', '--name-only', '-z', ref], opts);
  await mkdir(dest, { recursive: true });
  for (const path of stdout.split('\0').filter((p) => WANTED.test(p))) {
    const { stdout: body } = await run('git', ['show', `${ref}:${path}`], { ...opts, maxBuffer: 4 * 1024 * 1024 });
    await mkdir(dirname(join(dest, path)), { recursive: true });
    await writeFile(join(dest, path), body);
  }
  return dest;
}
