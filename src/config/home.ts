import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** State folder (CONTRACT §2): $PROOFPR_HOME, default `.proofpr/` under the current directory. */
export function proofprHome(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.PROOFPR_HOME || '.proofpr');
}

/**
 * Makes the state folder, holding a `.gitignore` of `*` (as Python's venv and pytest's cache do): made
 * inside a checkout (`proofpr run --repo .` with the default home), git ignores it whole, and no file of the
 * user's (their `.gitignore`, `.git/info/exclude`) is touched. Returns the folder.
 */
export function ensureHome(home: string): string {
  mkdirSync(home, { recursive: true });
  const ignore = join(home, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# proofpr state (runs, worktrees, caches): never committed\n*\n');
  return home;
}
