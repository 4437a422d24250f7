import { spawn } from 'node:child_process';
import { WorkspaceError } from './errors.js';
import { harnessGitEnv } from './harness-git-env.js';
import { privateStoreFor } from './private-objects.js';
import { redactText } from '../secrets/index.js';

export interface GitOptions {
  cwd: string;
  /**
   * A GitHub token for this one command: sent as an `http.extraheader` passed through git's
   * GIT_CONFIG_COUNT environment (not argv, so `ps` never shows it; never written to any config).
   */
  token?: string;
  /** Extra `-c key=value` settings for this command (passed the same way as the token). */
  config?: Record<string, string>;
  /** Extra environment (e.g. GIT_INDEX_FILE). */
  env?: Record<string, string>;
  /** Written to stdin. */
  input?: string;
  /** Exit codes that are not failures (default [0]). */
  okCodes?: number[];
  timeoutMs?: number;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** A failed git command; `stderr` and the message are already scrubbed of secrets. */
export class GitError extends WorkspaceError {
  readonly args: string[];
  readonly code: number;
  readonly stderr: string;
  constructor(args: string[], code: number, stderr: string, cwd: string) {
    const tail = stderr.trim().split('\n').slice(-6).join('\n');
    super('git', `git ${args[0] ?? ''} failed (exit ${code}) in ${cwd}: ${tail || '(no output)'}`);
    this.name = 'GitError';
    this.args = args;
    this.code = code;
    this.stderr = stderr;
  }
}

const MAX_OUTPUT = 256 * 1024 * 1024;

/** The Authorization header value GitHub accepts for an installation or Actions token over https. */
export function authHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

/** Every form in which a token could leak into text: raw, basic-auth pair, base64 header value. */
export function secretForms(token: string | undefined): string[] {
  if (!token) return [];
  return [token, `x-access-token:${token}`, Buffer.from(`x-access-token:${token}`).toString('base64')];
}

/** Removes secrets, Authorization headers and URL credentials from text meant for errors or logs. */
export function scrub(text: string, secrets: string[] = []): string {
  return redactText(text, secrets);
}

const DISK_FULL = /no space left on device|ENOSPC|disk quota exceeded|EDQUOT/i;

/**
 * Runs `git` with the harness environment (no system/global config, no hooks, no signing, no prompts).
 * Throws GitError (or WorkspaceError 'disk-full') with scrubbed text on a non-ok exit.
 */
export function git(args: string[], opts: GitOptions): Promise<GitResult> {
  const secrets = secretForms(opts.token);
  const env: Record<string, string> = { ...harnessGitEnv(), ...(opts.env ?? {}) };
  const extra: [string, string][] = Object.entries(opts.config ?? {});
  if (opts.token) extra.push(['http.extraheader', authHeader(opts.token)]);
  let count = Number(env.GIT_CONFIG_COUNT ?? '0');
  for (const [k, v] of extra) {
    env[`GIT_CONFIG_KEY_${count}`] = k;
    env[`GIT_CONFIG_VALUE_${count}`] = v;
    count += 1;
  }
  env.GIT_CONFIG_COUNT = String(count);
  // A read of a tree the harness hashed during the run (it lives in the worktree's private store).
  const own = env.GIT_OBJECT_DIRECTORY !== undefined || env.GIT_ALTERNATE_OBJECT_DIRECTORIES !== undefined;
  const priv = own ? undefined : privateStoreFor(args[0], opts.cwd, env.GIT_DIR);
  if (priv) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = priv;
  const okCodes = opts.okCodes ?? [0];
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    if (opts.timeoutMs) timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= MAX_OUTPUT) out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (timer) clearTimeout(timer);
      const msg = scrub(e.message, secrets);
      reject(DISK_FULL.test(msg) ? diskFull(args, opts.cwd) : new WorkspaceError('git', `could not run git ${args[0] ?? ''}: ${msg}`));
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = scrub(Buffer.concat(err).toString('utf8'), secrets);
      const exit = code ?? (signal ? 128 : 1);
      if (okCodes.includes(exit)) return resolve({ stdout, stderr, code: exit });
      if (DISK_FULL.test(stderr)) return reject(diskFull(args, opts.cwd));
      const safeArgs = args.map((a) => scrub(a, secrets));
      reject(new GitError(safeArgs, exit, signal ? `${stderr}\n(killed by ${signal})` : stderr, opts.cwd));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

function diskFull(args: string[], cwd: string): WorkspaceError {
  return new WorkspaceError(
    'disk-full',
    `the disk is full (no space left on device) during git ${args[0] ?? ''} in ${cwd}: the repository is too large for ` +
      'the free space; free space under PROOFPR_HOME (old mirrors, worktrees, runs) or move PROOFPR_HOME to a bigger disk',
  );
}

/** `git rev-parse --verify <rev>^{commit}` → sha, or undefined when it does not resolve. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | undefined> {
  const r = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { cwd, okCodes: [0, 1, 128] });
  const sha = r.stdout.trim();
  return r.code === 0 && sha ? sha : undefined;
}
