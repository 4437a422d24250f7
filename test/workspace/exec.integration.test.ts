import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrubbedEnv } from '../../src/workspace/env-scrub.js';
import { afterThisTest, openExec, type ExecOptions } from '../kit/walls-exec.js';
import { endedWithin } from '../kit/process.js';

const setup = (extra: Partial<ExecOptions> = {}) => openExec('proofpr-exec-', extra);

describe('exec', () => {
  it('exec - returns exit code, interleaved output in arrival order and separate streams', async () => {
    const { h, root } = await setup();
    const r = await h.exec({ command: 'echo a; sleep 0.05; echo b >&2; sleep 0.05; echo c; exit 3', cwd: root, timeoutMs: 5000 });
    expect(r).toMatchObject({
      exitCode: 3,
      output: 'a\nb\nc\n',
      stdout: 'a\nc\n',
      stderr: 'b\n',
      timedOut: false,
      cancelled: false,
      truncated: false,
      sandbox: 'none',
    });
  });

  it('exec - passes stdin to the process', async () => {
    const { h, root } = await setup();
    const r = await h.exec({
      command: 'cat; echo " $PROOFPR_FILE"',
      cwd: root,
      timeoutMs: 5000,
      stdin: '{"a":1}',
      extraEnv: { PROOFPR_FILE: 'x.ts' },
    });
    expect(r.stdout).toBe('{"a":1} x.ts\n');
  });

  it('exec - a timeout kills the whole process group, including children that ignore SIGTERM', async () => {
    const { h, root } = await setup();
    const pidFile = join(root, 'pid');
    const r = await h.exec({ command: `bash -c 'trap "" TERM; sleep 30' & echo $! > ${pidFile}; sleep 30`, cwd: root, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await endedWithin(pid)).toBe(true);
  });

  it('exec - an aborted signal cancels the command', async () => {
    const { h, root } = await setup();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    const r = await h.exec({ command: 'sleep 30', cwd: root, timeoutMs: 30_000, signal: ac.signal });
    expect(r.cancelled).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('exec - caps output keeping head and tail', async () => {
    const { h, root } = await setup({ maxOutputBytes: 1000 });
    const r = await h.exec({ command: "echo START; head -c 200000 /dev/zero | tr '\\0' a; echo; echo END", cwd: root, timeoutMs: 5000 });
    expect(r.truncated).toBe(true);
    expect(r.output.startsWith('START')).toBe(true);
    expect(r.output.trimEnd().endsWith('END')).toBe(true);
    expect(r.output).toMatch(/bytes of output cut/);
    expect(r.output.length).toBeLessThan(1200);
  });

  it('exec - runs at most maxConcurrent processes at once', async () => {
    const { h, root } = await setup({ maxConcurrent: 2 });
    const t0 = Date.now();
    await Promise.all([1, 2, 3, 4].map(() => h.exec({ command: 'sleep 0.3', cwd: root, timeoutMs: 5000 })));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
  });

  it('exec - dispose kills every live process group and refuses new work', async () => {
    const { h, root } = await setup();
    const p = h.exec({ command: `sleep 30 & echo $! > ${join(root, 'bg')}; sleep 30`, cwd: root, timeoutMs: 60_000 });
    await new Promise((res) => setTimeout(res, 200));
    const t0 = Date.now();
    await h.dispose();
    await p;
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await endedWithin(Number(readFileSync(join(root, 'bg'), 'utf8')))).toBe(true);
    await expect(h.exec({ command: 'true', cwd: root, timeoutMs: 1000 })).rejects.toThrow(/dispose/);
  });

  it('exec - children see a scrubbed environment without the parent secrets', async () => {
    const saved = { a: process.env.ANTHROPIC_API_KEY, g: process.env.GITHUB_TOKEN, m: process.env.MY_SETTING };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-canary-5f1e2d';
    process.env.GITHUB_TOKEN = 'ghp_canary_9a8b7c';
    process.env.MY_SETTING = 'visible';
    afterThisTest(() => {
      for (const [k, v] of [
        ['ANTHROPIC_API_KEY', saved.a],
        ['GITHUB_TOKEN', saved.g],
        ['MY_SETTING', saved.m],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    const { h, root, run } = await setup({ extraEnvNames: ['MY_SETTING', 'GITHUB_TOKEN', 'ANTHROPIC_API_KEY'] });
    const r = await h.exec({ command: 'env; cat /proc/self/environ', cwd: root, timeoutMs: 5000 });
    expect(r.output).not.toContain('sk-ant-canary-5f1e2d');
    expect(r.output).not.toContain('ghp_canary_9a8b7c');
    expect(r.stdout).toContain('MY_SETTING=visible');
    expect(r.stdout).toContain(`HOME=${join(run, 'home')}`);
    expect(r.stdout).toContain('CI=true');
  });

  it('env scrub - keeps only the allowlist and drops secret-looking names even when listed', () => {
    const env = scrubbedEnv({
      home: '/h',
      tmpdir: '/t',
      extraNames: ['FOO', 'NPM_TOKEN', 'DB_PASSWORD', 'INPUT_GITHUB_TOKEN', 'ACTIONS_RUNTIME_URL', 'AWS_REGION', 'API_KEY'],
      parent: {
        PATH: '/bin',
        FOO: 'f',
        NPM_TOKEN: 'n',
        DB_PASSWORD: 'p',
        INPUT_GITHUB_TOKEN: 'i',
        ACTIONS_RUNTIME_URL: 'a',
        AWS_REGION: 'r',
        API_KEY: 'k',
        OTHER: 'o',
        HOME: '/root',
      },
    });
    expect(env).toEqual({ PATH: '/bin', FOO: 'f', HOME: '/h', TMPDIR: '/t', CI: 'true' });
  });

  it('exec - HOME and TMPDIR are per-run folders that exist', async () => {
    const { h, root, run } = await setup();
    const r = await h.exec({ command: 'touch "$HOME/x" "$TMPDIR/y" && echo ok', cwd: root, timeoutMs: 5000 });
    expect(r.stdout).toBe('ok\n');
    expect(existsSync(join(run, 'home', 'x'))).toBe(true);
  });
});
