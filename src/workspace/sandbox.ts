import { bwrapProblem, probeBwrap } from './sandbox-status.js';
import { systemRootArgv } from './sandbox-system.js';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** Path of a bwrap that can really create namespaces here (tried once: `bwrap --ro-bind / / true`), or null. */
export async function detectBwrap(): Promise<string | null> {
  return (await probeBwrap()).ok ? 'bwrap' : null;
}

export class SandboxUnavailableError extends Error {
  constructor(problem = 'bubblewrap (bwrap) is not installed or cannot create namespaces: apt-get install bubblewrap') {
    super(`sandbox: required in .github/proofpr.yml but ${problem}; or set sandbox: auto`);
    this.name = 'SandboxUnavailableError';
  }
}

/** Decide which isolation applies for a `sandbox:` setting; `required` without a working bwrap throws. */
export async function resolveSandbox(setting: SandboxSetting): Promise<'bwrap' | 'none'> {
  if (setting === 'off') return 'none';
  const probe = await probeBwrap();
  if (probe.ok) return 'bwrap';
  if (setting === 'required') throw new SandboxUnavailableError(bwrapProblem(probe));
  return 'none';
}

export interface SandboxOptions {
  root: string;
  /** Private /tmp inside the sandbox is a tmpfs; `tmp` is the per-run TMPDIR bound writable. */
  tmp: string;
  home: string;
  /** True keeps the host network (a setup command such as `npm ci`); false (the default use) unshares it. */
  network: boolean;
  /** Working directory inside the sandbox (default: root). */
  cwd?: string;
  /** Folders hidden behind an empty tmpfs (PROOFPR_HOME, the real home, the source checkout's .git). */
  hide?: string[];
  /** Bound read-only over whatever a hide put there (the worktree's git dirs, linked dependency folders). */
  readOnly?: string[];
  /** [source, destination] pairs bound read-only (a sanitized git config; /dev/null over a hidden file; an empty file over a secret). */
  overlays?: Array<[string, string]>;
  /** Paths bound writable again inside a read-only one (control files a maintainer opened with permissions.writable). */
  writable?: string[];
  /** [source, destination]: a fresh writable folder bound over a path inside a read-only one (tool caches in node_modules). */
  scratchBinds?: Array<[string, string]>;
  /**
   * [private git dir, the worktree's git dir]: the agent's own git (agent-git.ts) bound where the worktree's
   * `.git` leads, writable (read-only in plan mode); the repository's real git dirs are not mounted at all.
   */
  agentGit?: [string, string];
  /**
   * Folders bound onto themselves (read-only in plan mode), so that they are mount points: a folder that
   * holds a masked file can then be neither renamed nor removed (the kernel refuses it, EBUSY), and the
   * masked file stays where the harness maps it back onto the base.
   */
  pinnedDirs?: string[];
  /** Bind the worktree read-only (plan mode). */
  readOnlyRoot?: boolean;
  /**
   * Empty folders made to be bound read-only (control folders that did not exist, protected-mounts.ts):
   * made again before each command, since a harness step (`git clean -fd`) may remove an empty folder.
   */
  ensureDirs?: string[];
}

type Mount = { dest: string; rank: number; argv: string[] };

const depth = (p: string): number => p.split('/').filter(Boolean).length;

/**
 * bwrap arguments (without the command): a root built from what it names (sandbox-system.ts: the
 * system folders and /etc entries read-only; nothing else of the host), hidden folders replaced by
 * an empty tmpfs, the worktree, the per-run TMPDIR and HOME writable, `<root>/.git` read-only and the
 * agent's private git dir where it leads (agent-git.ts), a fresh /tmp, /dev and /proc, no network unless asked, its own PID namespace, and killed
 * with its parent. Mounts are applied parents first (then hide < writable < read-only < overlay on the
 * same path), so the most specific path wins: a worktree inside a hidden PROOFPR_HOME is still there,
 * and its `.git` pointer stays read-only inside the writable worktree. No `--new-session`: the caller
 * kills the whole process group on timeout, and bwrap stays in that group; `--die-with-parent` covers the rest.
 */
export function sandboxArgv(opts: SandboxOptions): string[] {
  const mounts: Mount[] = [
    ...(opts.hide ?? []).map((d) => ({ dest: d, rank: 0, argv: ['--tmpfs', d] })),
    { dest: opts.root, rank: 1, argv: [opts.readOnlyRoot ? '--ro-bind' : '--bind', opts.root, opts.root] },
    ...(opts.pinnedDirs ?? []).map((d) => ({ dest: d, rank: 1, argv: [opts.readOnlyRoot ? '--ro-bind' : '--bind', d, d] })),
    ...[opts.tmp, opts.home].map((d) => ({ dest: d, rank: 1, argv: ['--bind', d, d] })),
    ...(opts.readOnlyRoot ? [] : (opts.writable ?? [])).map((d) => ({ dest: d, rank: 3, argv: ['--bind', d, d] })),
    { dest: `${opts.root}/.git`, rank: 2, argv: ['--ro-bind-try', `${opts.root}/.git`, `${opts.root}/.git`] },
    ...(opts.readOnly ?? []).map((d) => ({ dest: d, rank: 2, argv: ['--ro-bind', d, d] })),
    ...(opts.overlays ?? []).map(([src, dest]) => ({ dest, rank: 3, argv: ['--ro-bind', src, dest] })),
    ...(opts.readOnlyRoot ? [] : (opts.scratchBinds ?? [])).map(([src, dest]) => ({ dest, rank: 3, argv: ['--bind', src, dest] })),
    ...(opts.agentGit ? [opts.agentGit] : []).map(([src, dest]) => ({
      dest,
      rank: 3,
      argv: [opts.readOnlyRoot ? '--ro-bind' : '--bind', src, dest],
    })),
  ];
  const seen = new Set<string>();
  const ordered = mounts
    .map((m, i) => ({ ...m, i }))
    .sort((a, b) => depth(a.dest) - depth(b.dest) || a.rank - b.rank || a.i - b.i)
    .filter((m) => {
      const key = m.argv.join('\0');
      return seen.has(key) ? false : (seen.add(key), true);
    });
  return [
    ...systemRootArgv(),
    ...ordered.flatMap((m) => m.argv),
    // The root folder bwrap builds the rest in: read-only once every mount is in place (the mounts keep theirs).
    '--remount-ro',
    '/',
    ...(opts.network ? [] : ['--unshare-net']),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--chdir',
    opts.cwd ?? opts.root,
  ];
}
