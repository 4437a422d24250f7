import { execFile } from 'node:child_process';

export type SandboxSetting = 'auto' | 'required' | 'off';

let probe: Promise<string | null> | null = null;

/** Path of a bwrap that can really create namespaces here (tried once: `bwrap --ro-bind / / true`), or null. */
export function detectBwrap(): Promise<string | null> {
  probe ??= new Promise((resolve) => {
    execFile('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--dev', '/dev', '--proc', '/proc', 'true'], { timeout: 10_000 }, (err) => {
      resolve(err ? null : 'bwrap');
    });
  });
  return probe;
}

export class SandboxUnavailableError extends Error {
  constructor() {
    super(
      'sandbox: required in .github/proofpr.yml but bubblewrap (bwrap) is not installed or cannot create namespaces: apt-get install bubblewrap, or set sandbox: auto',
    );
    this.name = 'SandboxUnavailableError';
  }
}

/** Decide which isolation applies for a `sandbox:` setting; `required` without a working bwrap throws. */
export async function resolveSandbox(setting: SandboxSetting): Promise<'bwrap' | 'none'> {
  if (setting === 'off') return 'none';
  const bwrap = await detectBwrap();
  if (bwrap) return 'bwrap';
  if (setting === 'required') throw new SandboxUnavailableError();
  return 'none';
}

export interface SandboxOptions {
  root: string;
  /** Private /tmp inside the sandbox is a tmpfs; `tmp` is the per-run TMPDIR bound writable. */
  tmp: string;
  home: string;
  network: false;
  /** Working directory inside the sandbox (default: root). */
  cwd?: string;
}

/**
 * bwrap arguments (without the command): the whole file system read-only, the worktree, the per-run
 * TMPDIR and HOME writable, a fresh /tmp, /dev and /proc, no network, its own PID namespace, and killed
 * with its parent. No `--new-session`: the caller kills the whole process group on timeout, and
 * bwrap stays in that group; `--die-with-parent` covers the rest.
 */
export function sandboxArgv(opts: SandboxOptions): string[] {
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--bind', opts.root, opts.root,
    '--bind', opts.tmp, opts.tmp,
    '--bind', opts.home, opts.home,
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--chdir', opts.cwd ?? opts.root,
  ];
}
