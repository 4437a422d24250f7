/**
 * Suite-wide hygiene guard (jest globalSetup/globalTeardown): a test never touches the repository it
 * runs in. The worktrees registered in this project's own repository under the temp folder are listed
 * before the run; a new one after it (a test that ran a harness checkout on this repository instead of
 * its own temp repository) fails the run, naming it, and is removed.
 */
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';

const tmp = realpathSync(tmpdir());

function tempWorktrees() {
  try {
    const out = execFileSync('git', ['worktree', 'list', '--porcelain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length)).filter((p) => p.startsWith(`${tmp}/`));
  } catch {
    return []; // not a git checkout (a packed copy): nothing to guard
  }
}

export function before() {
  globalThis.__proofprTempWorktrees = new Set(tempWorktrees());
}

export function after() {
  const known = globalThis.__proofprTempWorktrees ?? new Set();
  const leaked = tempWorktrees().filter((p) => !known.has(p));
  if (leaked.length === 0) return;
  for (const p of leaked) {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', p], { stdio: 'ignore' });
    } catch {
      /* gone already: prune below */
    }
  }
  execFileSync('git', ['worktree', 'prune'], { stdio: 'ignore' });
  throw new Error(`a test registered worktrees in this project's own repository (removed now): ${leaked.join(', ')}; tests must use their own temp repositories`);
}
