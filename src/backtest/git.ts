/** git for the backtest: synchronous, output as text, never prompting, a clear error naming the command. */
import { execFileSync } from 'node:child_process';

const QUIET: NodeJS.ProcessEnv = { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

/** Runs `git args` in `cwd` (a work tree or a bare repository); `input` goes to stdin. */
export function git(cwd: string, args: readonly string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, ...QUIET, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(opts.input !== undefined ? { input: opts.input } : {}),
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${(err.stderr ?? err.message).trim()}`);
  }
}

/** The object `rev` names as `file:path` at that commit, or undefined when the path is not there. */
export function showFile(cwd: string, rev: string, path: string): string | undefined {
  try {
    return execFileSync('git', ['show', `${rev}:${path}`], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}
