import { execFile } from 'node:child_process';
import { mkdtemp, rm, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Content hash of a worktree: `git add -A` into a temporary index (seeded from the real one so git's
 * stat cache makes it cheap), then `git write-tree`. Two trees with the same files hash the same,
 * whatever the timestamps say. Ignored files are not part of it (they are not part of a commit either).
 */
export async function treeHash(root: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'proofpr-idx-'));
  const index = join(dir, 'index');
  try {
    const { stdout: realIndex } = await run('git', ['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd: root });
    await copyFile(realIndex.trim(), index).catch(() => undefined);
    const env = { ...gitEnv(), GIT_INDEX_FILE: index };
    await run('git', ['add', '-A', '--', '.'], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
    const { stdout } = await run('git', ['write-tree'], { cwd: root, env });
    return stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A minimal environment for the harness's own git calls (no user config surprises, no prompts). */
export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_CONFIG_NOSYSTEM = '1';
  return env;
}
