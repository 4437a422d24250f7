import { describe, it, expect, afterEach } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { detectBwrap, resolveSandbox, sandboxArgv } from '../../src/workspace/sandbox.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

/** Without a working bwrap these tests fail on CI (CI=true) and prove nothing elsewhere. */
async function needBwrap(): Promise<boolean> {
  const ok = (await detectBwrap()) !== null;
  if (!ok) expect(process.env.CI === 'true' ? 'bwrap missing on CI: apt-get install bubblewrap' : 'no bwrap').toBe('no bwrap');
  return ok;
}

async function setup(sandbox: 'required' | 'off'): Promise<{ h: ExecHandle; root: string }> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-sbx-')));
  const root = join(base, 'repo');
  mkdirSync(root);
  const h = await createExec({ root, runTmp: join(base, 'run'), sandbox, killGraceMs: 200 });
  cleanup.push(async () => {
    await h.dispose();
    rmSync(base, { recursive: true, force: true });
  });
  return { h, root };
}

async function listen(): Promise<{ port: number; hits: () => number; server: Server }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as { port: number }).port, hits: () => n, server };
}

describe('sandbox', () => {
  it('sandbox - argv binds the worktree writable over a read-only root without network', () => {
    const argv = sandboxArgv({ root: '/w', tmp: '/r/tmp', home: '/r/home', network: false });
    expect(argv.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(argv.join(' ')).toContain('--bind /w /w');
    for (const f of ['--unshare-net', '--unshare-pid', '--die-with-parent']) expect(argv).toContain(f);
    expect(argv.join(' ')).toContain('--tmpfs /tmp');
  });

  it('sandbox - off never uses bwrap', async () => {
    expect(await resolveSandbox('off')).toBe('none');
  });

  it('sandbox - bash in bwrap writes the worktree but nothing outside it', async () => {
    if (!(await needBwrap())) return;
    const { h, root } = await setup('required');
    expect(h.sandbox).toBe('bwrap');
    const marker = `proofpr-sbx-${process.pid}-${Date.now()}`;
    const hostHome = homedir();
    const r = await h.exec({
      command: `echo ok > inside.txt; touch /tmp/${marker}; echo $?; touch ${hostHome}/${marker} 2>/dev/null; echo $?; touch /etc/${marker} 2>/dev/null; echo $?`,
      cwd: root, timeoutMs: 10_000,
    });
    expect(r.sandbox).toBe('bwrap');
    expect(readFileSync(join(root, 'inside.txt'), 'utf8')).toBe('ok\n');
    const [tmpRc, homeRc, etcRc] = r.stdout.trim().split('\n');
    expect(tmpRc).toBe('0');
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(homeRc).not.toBe('0');
    expect(existsSync(join(hostHome, marker))).toBe(false);
    expect(etcRc).not.toBe('0');
  });

  it('sandbox - bash in bwrap cannot open a network socket that works without it', async () => {
    if (!(await needBwrap())) return;
    const srv = await listen();
    const cmd = `echo hi > /dev/tcp/127.0.0.1/${srv.port} && echo connected`;
    const plain = await (await setup('off')).h.exec({ command: cmd, cwd: tmpdir(), timeoutMs: 5000 });
    expect(plain.stdout).toBe('connected\n');
    const boxed = await setup('required');
    const r = await boxed.h.exec({ command: cmd, cwd: boxed.root, timeoutMs: 5000 });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('connected');
    expect(srv.hits()).toBe(1);
  });

  it('sandbox - a timeout in bwrap kills everything inside', async () => {
    if (!(await needBwrap())) return;
    const { h, root } = await setup('required');
    const t0 = Date.now();
    const r = await h.exec({ command: "bash -c 'trap \"\" TERM; sleep 30' & sleep 30", cwd: root, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
