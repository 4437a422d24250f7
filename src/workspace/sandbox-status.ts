import { execFile } from 'node:child_process';

/** What trying bubblewrap once on this machine showed: ok, or bwrap's own error. */
export interface BwrapProbe {
  ok: boolean;
  /** bwrap's stderr (or the spawn error) when it failed. */
  error?: string;
  /** True when there is no bwrap binary at all. */
  missing?: boolean;
}

export type BwrapProber = () => Promise<BwrapProbe>;

/** The probe: a namespace sandbox like the real one (`--unshare-net --unshare-pid`) running `true`. */
const defaultProber: BwrapProber = () =>
  new Promise((resolve) => {
    execFile(
      'bwrap',
      ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--dev', '/dev', '--proc', '/proc', 'true'],
      { timeout: 10_000 },
      (err, _out, stderr) => {
        if (!err) return resolve({ ok: true });
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve({ ok: false, missing: true, error: 'bwrap: command not found' });
        resolve({ ok: false, error: (String(stderr).trim() || err.message).split('\n').slice(-3).join(' ') });
      },
    );
  });

let prober: BwrapProber = defaultProber;
let cached: Promise<BwrapProbe> | undefined;

/** The probe's result, tried once per process. */
export function probeBwrap(): Promise<BwrapProbe> {
  cached ??= prober().catch((e: Error) => ({ ok: false, error: e.message }));
  return cached;
}

/** Replaces the probe (tests inject a failing bwrap) and forgets the cached result; no argument restores the real one. */
export function setBwrapProber(p?: BwrapProber): void {
  prober = p ?? defaultProber;
  cached = undefined;
}

/** Forgets the cached result (after the machine was changed, e.g. the Action lifted the AppArmor restriction). */
export function forgetBwrapProbe(): void {
  cached = undefined;
}

/** What to do about a bwrap that is there but cannot create namespaces (Ubuntu 23.10+, 24.04 runners, Docker). */
export const NAMESPACE_HINT =
  'on Ubuntu 23.10+ (GitHub-hosted ubuntu-24.04 runners) AppArmor restricts unprivileged user namespaces: ' +
  '`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor profile for bwrap (the Action does this itself); ' +
  'in Docker, run the container with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`';

/** One sentence: why bwrap is not usable here, with bwrap's own error and the fix. */
export function bwrapProblem(p: BwrapProbe): string {
  if (p.missing) return 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap';
  return `bubblewrap cannot create namespaces here (bwrap said: ${p.error ?? 'unknown error'}); ${NAMESPACE_HINT}`;
}

export interface SandboxStatus {
  sandbox: 'bwrap' | 'none';
  /** Why there is no sandbox, when there is none. */
  reason?: string;
}

/**
 * The sandbox a `sandbox:` setting gives on this machine and, when none, why, for the start of the run
 * (CLI, Action log, status comment) and the evidence (`sandbox`, `sandboxReason`). `required` without a
 * working bwrap is an error raised by the exec itself (resolveSandbox), with the same sentence.
 */
export async function sandboxStatus(setting: 'auto' | 'required' | 'off'): Promise<SandboxStatus> {
  if (setting === 'off') return { sandbox: 'none', reason: 'sandbox: off in .github/proofpr.yml' };
  const p = await probeBwrap();
  if (p.ok) return { sandbox: 'bwrap' };
  return { sandbox: 'none', reason: `no sandbox: ${bwrapProblem(p)}` };
}
