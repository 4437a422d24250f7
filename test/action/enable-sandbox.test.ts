import { describe, expect, it } from '@jest/globals';
import { bwrapProfile, describeSandbox, enableSandbox, type EnableSandboxDeps } from '../../src/hosts/action/enable-sandbox.js';
import type { BwrapProbe } from '../../src/workspace/sandbox-status.js';

const USERNS = 'bwrap: setting up uid map: Permission denied';

/** A runner: probes answer in order; commands are recorded and answer by their first words. */
function runner(
  probes: BwrapProbe[],
  opts: { restriction?: string; fail?: string[]; hosted?: boolean; isRoot?: boolean; platform?: NodeJS.Platform } = {},
) {
  const ran: Array<{ cmd: string; input?: string }> = [];
  let i = 0;
  const deps: EnableSandboxDeps = {
    exec: async (file, args, input) => {
      const cmd = [file, ...args].join(' ');
      ran.push({ cmd, ...(input !== undefined ? { input } : {}) });
      if (cmd === 'sh -c command -v bwrap') return { code: 0, stdout: '/usr/bin/bwrap\n', stderr: '' };
      return (opts.fail ?? []).some((f) => cmd.includes(f))
        ? { code: 1, stdout: '', stderr: 'failed' }
        : { code: 0, stdout: '', stderr: '' };
    },
    probe: async () => probes[Math.min(i++, probes.length - 1)] ?? { ok: false },
    readRestriction: async () => opts.restriction,
    platform: opts.platform ?? 'linux',
    isRoot: opts.isRoot ?? false,
    hosted: opts.hosted ?? true,
  };
  return { deps, ran };
}

describe('Action: making bubblewrap work on the runner', () => {
  it('enable sandbox - a working bwrap: nothing is run, sandbox bwrap', async () => {
    const r = runner([{ ok: true }]);
    expect(await enableSandbox('auto', r.deps)).toEqual({ sandbox: 'bwrap', did: [] });
    expect(r.ran).toEqual([]);
  });

  it('enable sandbox - AppArmor restriction (ubuntu-24.04): loads a bwrap profile with sudo, and says what it did', async () => {
    const r = runner([{ ok: false, error: USERNS }, { ok: true }], { restriction: '1' });
    const res = await enableSandbox('auto', r.deps);
    expect(res.sandbox).toBe('bwrap');
    expect(r.ran.map((c) => c.cmd)).toEqual([
      'sh -c command -v bwrap',
      'sudo -n tee /etc/apparmor.d/bwrap',
      'sudo -n apparmor_parser -r /etc/apparmor.d/bwrap',
    ]);
    expect(r.ran[1]?.input).toBe(bwrapProfile('/usr/bin/bwrap'));
    expect(r.ran[1]?.input).toContain('profile bwrap /usr/bin/bwrap flags=(unconfined) {\n  userns,');
    expect(res.did).toEqual(['sudo -n tee /etc/apparmor.d/bwrap', 'sudo -n apparmor_parser -r /etc/apparmor.d/bwrap']);
    expect(describeSandbox(res)[0]).toContain('made bubblewrap work on this runner: sudo -n tee /etc/apparmor.d/bwrap');
  });

  it('enable sandbox - when the profile does not help, the sysctl turns the restriction off', async () => {
    const r = runner([{ ok: false, error: USERNS }, { ok: false, error: USERNS }, { ok: true }], { restriction: '1' });
    const res = await enableSandbox('auto', r.deps);
    expect(res.sandbox).toBe('bwrap');
    expect(res.did.at(-1)).toBe('sudo -n sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
  });

  it('enable sandbox - a profile that fails to load goes straight to the sysctl; as root, no sudo', async () => {
    const r = runner([{ ok: false, error: USERNS }, { ok: true }], { restriction: '1', fail: ['apparmor_parser'], isRoot: true });
    const res = await enableSandbox('auto', r.deps);
    expect(res.did).toEqual([
      'tee /etc/apparmor.d/bwrap',
      'apparmor_parser -r /etc/apparmor.d/bwrap',
      'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    ]);
    expect(res.sandbox).toBe('bwrap');
  });

  it('enable sandbox - bwrap missing: apt-get install, with apt-get update when the first install fails', async () => {
    const r = runner([{ ok: false, missing: true, error: 'bwrap: command not found' }, { ok: true }], { fail: [] });
    expect((await enableSandbox('auto', r.deps)).sandbox).toBe('bwrap');
    expect(r.ran.map((c) => c.cmd)).toEqual(['sudo -n apt-get install -y --no-install-recommends bubblewrap']);
    const again = runner([{ ok: false, missing: true }, { ok: true }], { fail: ['install'] });
    await enableSandbox('auto', again.deps);
    expect(again.ran.map((c) => c.cmd)).toEqual([
      'sudo -n apt-get install -y --no-install-recommends bubblewrap',
      'sudo -n apt-get update -q',
      'sudo -n apt-get install -y --no-install-recommends bubblewrap',
    ]);
  });

  it("enable sandbox - nothing helps: sandbox none, with bwrap's own error and the fix, printed as a warning", async () => {
    const r = runner([{ ok: false, error: USERNS }], { restriction: '1' });
    const res = await enableSandbox('auto', r.deps);
    expect(res.sandbox).toBe('none');
    expect(res.reason).toContain(`bwrap said: ${USERNS}`);
    expect(res.reason).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(describeSandbox(res).at(-1)).toMatch(/^::warning::proofpr: sandbox: none: no sandbox: bubblewrap cannot create namespaces here/);
  });

  it('enable sandbox - a self-hosted runner or another OS is not changed, only reported; sandbox: off runs nothing', async () => {
    const self = runner([{ ok: false, error: USERNS }], { restriction: '1', hosted: false });
    expect((await enableSandbox('auto', self.deps)).sandbox).toBe('none');
    expect(self.ran).toEqual([]);
    const mac = runner([{ ok: false, error: 'bwrap: command not found', missing: true }], { platform: 'darwin' });
    expect((await enableSandbox('auto', mac.deps)).reason).toContain('not installed');
    expect(mac.ran).toEqual([]);
    const off = runner([{ ok: true }]);
    expect(await enableSandbox('off', off.deps)).toEqual({ sandbox: 'none', did: [], reason: 'sandbox: off in .github/proofpr.yml' });
  });
});
