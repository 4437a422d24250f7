/**
 * The machine: Node, git, ripgrep, and bubblewrap really creating namespaces (the same probe the sandbox
 * uses), with bwrap's own error and the AppArmor hint when Ubuntu's user-namespace restriction is on.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { checked, type CheckResult } from './check.js';

interface Ran {
  ok: boolean;
  stdout: string;
  stderr: string;
  missing: boolean;
}

function run(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 15_000, encoding: 'utf8', ...(env ? { env } : {}) }, (err, stdout, stderr) => {
      resolve({
        ok: !err,
        stdout: String(stdout),
        stderr: String(stderr),
        missing: (err as NodeJS.ErrnoException | null)?.code === 'ENOENT',
      });
    });
  });
}

const versionOf = (text: string): number[] => (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(text) ?? []).slice(1, 4).map((n) => Number(n ?? 0));
const atLeast = (v: number[], min: number[]): boolean => {
  for (let i = 0; i < min.length; i++) if ((v[i] ?? 0) !== (min[i] ?? 0)) return (v[i] ?? 0) > (min[i] ?? 0);
  return true;
};

/** The floor of package.json's `engines` (>=20.12: `serve` reads .env with util.parseEnv, new in 20.12). */
export const NODE_FLOOR = [20, 12] as const;

export function checkNode(version = process.versions.node): CheckResult {
  if (atLeast(versionOf(version), [...NODE_FLOOR])) return checked('node', 'ok', `v${version}`);
  const floor = NODE_FLOOR.join('.');
  return checked('node', 'fail', `v${version} is too old (proofpr needs ${floor} or later)`, `install Node.js ${floor} or later`);
}

export async function checkGit(): Promise<CheckResult> {
  const r = await run('git', ['--version']);
  if (!r.ok)
    return checked('git', 'fail', r.missing ? 'not found on PATH' : r.stderr.trim(), 'install git 2.30 or later (apt-get install git)');
  if (atLeast(versionOf(r.stdout), [2, 30])) return checked('git', 'ok', r.stdout.trim());
  return checked('git', 'fail', `${r.stdout.trim()} is too old`, 'install git 2.30 or later');
}

export async function checkRipgrep(): Promise<CheckResult> {
  const r = await run('rg', ['--version']);
  if (!r.ok) return checked('ripgrep', 'warn', 'rg not found: Grep falls back to a slower built-in search', 'apt-get install ripgrep');
  return checked('ripgrep', 'ok', r.stdout.split('\n')[0]?.trim() ?? 'rg');
}

const APPARMOR_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/** `sandbox:` decides how bad a missing sandbox is: `required` fails, `auto` warns, `off` skips. */
export async function checkBubblewrap(setting: 'auto' | 'required' | 'off', apparmorFile = APPARMOR_SYSCTL): Promise<CheckResult> {
  if (setting === 'off') return checked('bubblewrap', 'skip', 'sandbox: off in the config: commands run without isolation');
  const bad: CheckResult['status'] = setting === 'required' ? 'fail' : 'warn';
  const r = await run('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--dev', '/dev', '--proc', '/proc', 'true']);
  if (r.ok)
    return checked(
      'bubblewrap',
      'ok',
      'bwrap creates namespaces: Bash, hooks and tests run sandboxed (no network, read-only outside the worktree)',
    );
  if (r.missing) return checked('bubblewrap', bad, 'bwrap not found: commands would run without the sandbox', 'apt-get install bubblewrap');
  const restricted = (await readFile(apparmorFile, 'utf8').catch(() => '')).trim() === '1';
  const error = r.stderr.trim().split('\n')[0] ?? 'failed';
  return {
    name: 'bubblewrap',
    status: bad,
    detail: `bwrap cannot create namespaces here: ${error}`,
    fix: restricted
      ? 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1): run `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (persist it in /etc/sysctl.d/), or give bwrap an AppArmor profile that allows userns'
      : 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 / user.max_user_namespaces > 0); in a container, run it with --security-opt seccomp=unconfined --security-opt apparmor=unconfined (see the README)',
  };
}
