import { describe, it, expect } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSandbox, sandboxArgv } from '../../src/workspace/sandbox.js';
import { sandboxMounts } from '../../src/workspace/sandbox-mounts.js';
import { mayMountToolchainDir } from '../../src/workspace/sandbox-system.js';
import { sh, writeFiles } from './git-fixtures.js';
import { tempDir } from '../kit/temp.js';
import { afterThisTest, itInSandbox, openExec, sandboxedCheckout } from '../kit/walls-exec.js';

const setup = (sandbox: 'required' | 'off', network = false) => openExec('proofpr-sbx-', { sandbox, network });

async function listen(): Promise<{ port: number; hits: () => number; server: Server }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterThisTest(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as { port: number }).port, hits: () => n, server };
}

describe('sandbox', () => {
  it('sandbox - argv builds the root from what it names (system folders read-only, no host root), the worktree writable, no network', () => {
    const argv = sandboxArgv({ root: '/w', tmp: '/r/tmp', home: '/r/home', network: false });
    const binds = argv.flatMap((a, i) => (a === '--ro-bind' || a === '--bind' ? [argv[i + 2]] : []));
    expect(binds).not.toContain('/');
    for (const host of ['/run', '/var', '/var/run', '/var/lib', '/home', '/root', '/etc']) expect(binds).not.toContain(host);
    expect(argv.join(' ')).toContain('--ro-bind /usr /usr');
    expect(argv.join(' ')).toContain('--bind /w /w');
    for (const f of ['--unshare-net', '--unshare-pid', '--die-with-parent']) expect(argv).toContain(f);
    expect(argv.join(' ')).toContain('--tmpfs /tmp');
  });

  it('sandbox - off never uses bwrap', async () => {
    expect(await resolveSandbox('off')).toBe('none');
  });

  itInSandbox('sandbox - bash in bwrap writes the worktree but nothing outside it', async () => {
    const { h, root } = await setup('required');
    expect(h.sandbox).toBe('bwrap');
    const marker = `proofpr-sbx-${process.pid}-${Date.now()}`;
    const hostHome = homedir();
    const r = await h.exec({
      command: `echo ok > inside.txt; touch /tmp/${marker}; echo $?; touch ${hostHome}/${marker} 2>/dev/null; echo $?; touch /etc/${marker} 2>/dev/null; echo $?`,
      cwd: root,
      timeoutMs: 10_000,
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

  itInSandbox('sandbox - bash in bwrap cannot open a network socket that works without it', async () => {
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

  itInSandbox('sandbox - a timeout in bwrap kills everything inside', async () => {
    const { h, root } = await setup('required');
    const t0 = Date.now();
    const r = await h.exec({ command: 'bash -c \'trap "" TERM; sleep 30\' & sleep 30', cwd: root, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  itInSandbox('sandbox - network: true keeps the host network (setup commands), the default does not', async () => {
    const srv = await listen();
    const cmd = `echo hi > /dev/tcp/127.0.0.1/${srv.port} && echo connected`;
    const open = await setup('required', true);
    const r = await open.h.exec({ command: cmd, cwd: open.root, timeoutMs: 5000 });
    expect(r.sandbox).toBe('bwrap');
    expect(r.stdout).toBe('connected\n');
    const closed = await setup('required');
    expect((await closed.h.exec({ command: cmd, cwd: closed.root, timeoutMs: 5000 })).stdout).not.toContain('connected');
    expect(srv.hits()).toBe(1);
  });

  it('sandbox - argv applies parents first so the worktree inside a hidden folder stays writable and its .git read-only', () => {
    const argv = sandboxArgv({
      root: '/h/p/wt/r',
      tmp: '/h/p/runs/x/tmp',
      home: '/h/p/runs/x/home',
      network: false,
      hide: ['/h/p', '/h'],
      readOnly: ['/h/src/.git'],
      overlays: [['/h/p/runs/x/git-config', '/h/src/.git/config']],
    });
    const at = (...m: string[]): number => argv.findIndex((_, i) => m.every((x, j) => argv[i + j] === x));
    expect(at('--tmpfs', '/h')).toBeLessThan(at('--tmpfs', '/h/p'));
    expect(at('--tmpfs', '/h/p')).toBeLessThan(at('--bind', '/h/p/wt/r', '/h/p/wt/r'));
    expect(at('--bind', '/h/p/wt/r')).toBeLessThan(at('--ro-bind-try', '/h/p/wt/r/.git', '/h/p/wt/r/.git'));
    expect(at('--ro-bind', '/h/src/.git')).toBeLessThan(at('--ro-bind', '/h/p/runs/x/git-config', '/h/src/.git/config'));
  });

  itInSandbox(
    'sandbox - hidePaths hide the state folder, the home and the source .git; the worktree, its git dirs and linked deps stay usable',
    async () => {
      const { wt, h, paths } = await sandboxedCheckout({
        files: { 'README.md': '# r\n', '.gitignore': 'node_modules/\n' },
        branch: 'proofpr/3-h',
        prepare: ({ base, home, src, state }) => {
          sh(src, 'config', 'http.https://example.test/.extraheader', 'AUTHORIZATION: basic SECRET_IN_CONFIG');
          writeFiles(src, { 'node_modules/dep/index.js': 'module.exports = 42;\n' });
          writeFiles(home, { '.git-credentials': 'https://x:SECRET_CRED@example.test\n' });
          writeFiles(state, { 'proofpr.db': 'SECRET_DB\n', 'runs/other/transcript.jsonl': 'SECRET_RUN\n' });
          writeFiles(base, { 'token.txt': 'SECRET_FILE\n' });
        },
        hide: ({ base, home, src, state }) => [state, home, join(src, '.git'), join(base, 'token.txt'), join(base, 'missing')],
      });
      const { base, home: fakeHome, src, state } = paths;
      const run = async (command: string): Promise<string> => (await h.exec({ command, cwd: wt.path, timeoutMs: 10_000 })).output;
      const secrets = await run(
        `cat ${base}/token.txt ${fakeHome}/.git-credentials ${state}/proofpr.db ${state}/runs/other/transcript.jsonl ${src}/.git/config; ` +
          `grep -r SECRET ${fakeHome} ${state} 2>/dev/null; git config --list; ls ${state}`,
      );
      for (const s of ['SECRET_FILE', 'SECRET_CRED', 'SECRET_DB', 'SECRET_RUN', 'SECRET_IN_CONFIG']) expect(secrets).not.toContain(s);
      expect(await run('cat node_modules/dep/index.js')).toBe('module.exports = 42;\n');
      expect(await run('echo fixed > README.md && git status --porcelain && git log -1 --format=%s')).toBe(' M README.md\ninitial\n');
      expect(await run('touch "$TMPDIR/t" "$HOME/h" && echo ok')).toBe('ok\n');
      expect(await run(`touch ${wt.gitDir}/x ${src}/.git/y node_modules/z 2>/dev/null; echo $?`)).not.toBe('0\n');
      expect(existsSync(join(wt.gitDir, 'x'))).toBe(false);
      expect(existsSync(join(src, 'node_modules/z'))).toBe(false);
      expect(readFileSync(join(src, '.git/config'), 'utf8')).toContain('SECRET_IN_CONFIG');
      writeFileSync(join(wt.path, 'after.txt'), 'host still sees the worktree\n');
      expect(await run('cat after.txt')).toBe('host still sees the worktree\n');
    },
  );

  it('sandboxMounts - keeps PATH folders under a hidden home visible (with the install prefix of deep ones only)', async () => {
    const base = tempDir('proofpr-mnt-');
    const home = join(base, 'home');
    for (const d of ['.nvm/versions/node/v20/bin', '.cargo/bin', 'root', 'run']) mkdirSync(join(home, d), { recursive: true });
    const m = await sandboxMounts({
      root: join(home, 'root'),
      runTmp: join(home, 'run'),
      hidePaths: [home],
      pathEnv: `${home}/.nvm/versions/node/v20/bin:${home}/.cargo/bin:/usr/bin:relative`,
    });
    expect(m.hide).toEqual([home]);
    expect(m.readOnly).toEqual([join(home, '.nvm/versions/node/v20/bin'), join(home, '.nvm/versions/node/v20'), join(home, '.cargo/bin')]);
    expect((await sandboxMounts({ root: base, runTmp: base, hidePaths: ['/', join(base, 'missing')] })).hide).toEqual([]);
    // A version manager's shims (pyenv, rbenv, asdf) run its root's own scripts and versions: the root is shown too.
    mkdirSync(join(home, '.pyenv/shims'), { recursive: true });
    mkdirSync(join(home, 'shims'), { recursive: true });
    const shims = await sandboxMounts({
      root: join(home, 'root'),
      runTmp: join(home, 'run'),
      hidePaths: [home],
      pathEnv: `${home}/.pyenv/shims:${home}/shims`,
    });
    expect(shims.readOnly).toEqual([join(home, '.pyenv/shims'), join(home, '.pyenv'), join(home, 'shims')]);
    await expect(sandboxMounts({ root: base, runTmp: base, hidePaths: ['home'] })).rejects.toThrow(/must be an absolute path/);
  });

  it('sandboxMounts - a program in a PATH folder that links into another tree brings that tree (its bin prefix), never a socket folder', async () => {
    const base = tempDir('proofpr-mnt-links-');
    const tool = join(base, 'opt', 'pipx', 'venvs', 'yamllint', 'bin');
    mkdirSync(tool, { recursive: true });
    writeFileSync(join(tool, 'yamllint'), '#!/bin/sh\n');
    const pathDir = join(base, 'pipx_bin');
    mkdirSync(pathDir);
    symlinkSync(join(tool, 'yamllint'), join(pathDir, 'yamllint'));
    symlinkSync('/run', join(pathDir, 'run-link'));
    mkdirSync(join(base, 'root'));
    const m = await sandboxMounts({ root: join(base, 'root'), runTmp: base, pathEnv: pathDir });
    expect(m.readOnly).toEqual([pathDir, join(base, 'opt', 'pipx', 'venvs', 'yamllint')]);
  });

  it('sandboxMounts - a PATH entry never brings a home, a socket folder or runtime state with it', async () => {
    const base = tempDir('proofpr-mnt-home-');
    const home = join(base, 'home');
    mkdirSync(join(home, 'bin'), { recursive: true });
    // ~/bin on PATH with no hidden home (a doctor or sweep exec): the folder alone, never the home above it.
    expect(mayMountToolchainDir(home, true, home)).toBe(false);
    expect(mayMountToolchainDir(join(home, 'bin'), false, home)).toBe(true);
    for (const p of ['/', '/run', '/var', '/tmp', '/home', '/root', '/home/someone', '/var/run'])
      expect(mayMountToolchainDir(p, false, home)).toBe(false);
    expect(mayMountToolchainDir('/run/user/1000', true, home)).toBe(false);
    expect(mayMountToolchainDir('/opt/hostedtoolcache/node/20.1.0/x64', true, home)).toBe(true);
    const m = await sandboxMounts({ root: base, runTmp: base, pathEnv: '/run:/var/run:/home:/usr/bin' });
    for (const p of ['/run', '/var/run', '/home']) expect(m.readOnly).not.toContain(p);
  });
});
