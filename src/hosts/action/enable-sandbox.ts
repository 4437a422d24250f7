/**
 * On GitHub-hosted Ubuntu runners (24.04: AppArmor restricts unprivileged user namespaces) bubblewrap
 * cannot create its namespaces, so `sandbox: auto` would run without a sandbox. Before the run, the Action
 * makes bwrap work the way other agent actions do, with sudo: install bubblewrap when it is missing, load
 * an AppArmor profile that lets bwrap create user namespaces, and if that does not help, turn the
 * restriction off with sysctl. It says what it did and what state the sandbox is in.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { bwrapProblem, forgetBwrapProbe, probeBwrap, type BwrapProbe } from '../../workspace/sandbox-status.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface EnableSandboxDeps {
  /** Runs one command (no shell); `input` goes to stdin. */
  exec(file: string, args: string[], input?: string): Promise<CommandResult>;
  /** Tries bwrap; called again after each change. */
  probe(): Promise<BwrapProbe>;
  /** The AppArmor switch's value ('1' = restricted), undefined when the file is not there. */
  readRestriction(): Promise<string | undefined>;
  platform: NodeJS.Platform;
  isRoot: boolean;
  /** Only a GitHub-hosted runner (RUNNER_ENVIRONMENT=github-hosted, thrown away after the job) is changed; elsewhere the state is only reported. */
  hosted: boolean;
}

export interface EnableSandboxResult {
  sandbox: 'bwrap' | 'none';
  /** What was changed on the machine, one line each (the commands run). */
  did: string[];
  /** Why there is no sandbox, when there is none (bwrap's own error and the fix). */
  reason?: string;
}

const RESTRICTION = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/** The AppArmor profile Ubuntu itself ships for programs that need user namespaces, for bwrap at `path`. */
export function bwrapProfile(path: string): string {
  return [
    'abi <abi/4.0>,',
    'include <tunables/global>',
    '',
    `profile bwrap ${path} flags=(unconfined) {`,
    '  userns,',
    '  include if exists <local/bwrap>',
    '}',
    '',
  ].join('\n');
}

export const defaultEnableSandboxDeps: EnableSandboxDeps = {
  exec: (file, args, input) =>
    new Promise((resolve) => {
      const child = execFile(file, args, { timeout: 120_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 127) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      });
      if (input !== undefined) child.stdin?.end(input);
    }),
  probe: () => (forgetBwrapProbe(), probeBwrap()),
  readRestriction: () =>
    readFile(RESTRICTION, 'utf8').then(
      (t) => t.trim(),
      () => undefined,
    ),
  platform: process.platform,
  isRoot: process.getuid?.() === 0,
  hosted: process.env.RUNNER_ENVIRONMENT === 'github-hosted',
};

/**
 * Makes bubblewrap work on this runner when it does not (Linux only, `sandbox` not off), then says what
 * state the sandbox is in. Never throws: a step that fails is reported and the next one is tried.
 */
export async function enableSandbox(
  setting: 'auto' | 'required' | 'off',
  deps: EnableSandboxDeps = defaultEnableSandboxDeps,
): Promise<EnableSandboxResult> {
  if (setting === 'off') return { sandbox: 'none', did: [], reason: 'sandbox: off in .github/proofpr.yml' };
  const did: string[] = [];
  let probe = await deps.probe();
  if (probe.ok) return { sandbox: 'bwrap', did };
  if (deps.platform !== 'linux' || !deps.hosted) return { sandbox: 'none', did, reason: `no sandbox: ${bwrapProblem(probe)}` };
  const sudo = (file: string, args: string[], input?: string) => {
    const [f, a] = deps.isRoot ? [file, args] : ['sudo', ['-n', file, ...args]];
    did.push([f, ...a].join(' '));
    return deps.exec(f, a, input);
  };
  if (probe.missing) {
    const install = ['install', '-y', '--no-install-recommends', 'bubblewrap'];
    if ((await sudo('apt-get', install)).code !== 0) {
      await sudo('apt-get', ['update', '-q']);
      await sudo('apt-get', install);
    }
    probe = await deps.probe();
    if (probe.ok) return { sandbox: 'bwrap', did };
  }
  if (!probe.missing && (await deps.readRestriction()) === '1') {
    const where = await deps.exec('sh', ['-c', 'command -v bwrap']);
    const path = where.code === 0 && where.stdout.trim().startsWith('/') ? where.stdout.trim() : '/usr/bin/bwrap';
    const wrote = await sudo('tee', ['/etc/apparmor.d/bwrap'], bwrapProfile(path));
    if (wrote.code === 0 && (await sudo('apparmor_parser', ['-r', '/etc/apparmor.d/bwrap'])).code === 0) {
      probe = await deps.probe();
      if (probe.ok) return { sandbox: 'bwrap', did };
    }
    await sudo('sysctl', ['-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
    probe = await deps.probe();
    if (probe.ok) return { sandbox: 'bwrap', did };
  }
  return { sandbox: 'none', did, reason: `no sandbox: ${bwrapProblem(probe)}` };
}

/** The lines the Action prints at its start. */
export function describeSandbox(r: EnableSandboxResult): string[] {
  const lines = r.did.length ? [`proofpr: made bubblewrap work on this runner: ${r.did.join('; ')}`] : [];
  lines.push(
    r.sandbox === 'bwrap'
      ? 'proofpr: sandbox: bwrap (no network, read-only outside the worktree)'
      : `::warning::proofpr: sandbox: none: ${r.reason ?? 'not available'}`,
  );
  return lines;
}
