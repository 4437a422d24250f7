import { describe, it, expect } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { effectOf } from '../../src/tools/define-tool.js';
import { useRepo, call } from './helpers/context.js';
import type { ExecRequest } from '../../src/workspace/exec-port.js';
import { bashTool } from '../../src/tools/bash.js';

const repo = useRepo();

describe('Bash', () => {
  it('bash - runs in the root, interleaves output and reports the exit code', async () => {
    const r = await call(repo.ctx, 'Bash', { command: 'pwd; sleep 0.2; echo err >&2', description: 'where am I' });
    expect(r.isError).toBe(false);
    expect(r.forModel).toBe(`${repo.root}\nerr\nExit code: 0`);
    const ran = effectOf(r, 'exec');
    expect(ran).toMatchObject({ exitCode: 0, timedOut: false, command: 'pwd; sleep 0.2; echo err >&2' });
    expect(Date.parse(ran?.startedAt ?? '')).toBeLessThanOrEqual(Date.parse(ran?.endedAt ?? ''));
  });

  it('bash - a non-zero exit is an error that still shows the whole output', async () => {
    const r = await call(repo.ctx, 'Bash', { command: 'echo partial; exit 3' });
    expect(r).toMatchObject({
      isError: true,
      errorKind: 'exit_code',
      forModel: 'partial\nExit code: 3',
      effects: [{ type: 'exec', exitCode: 3 }],
    });
  });

  it('bash - says when there was no output', async () => {
    expect((await call(repo.ctx, 'Bash', { command: 'true' })).forModel).toBe('(no output)\nExit code: 0');
  });

  it('bash - a command that fails without a word is still told apart (never a bare exit code)', async () => {
    const r = await call(repo.ctx, 'Bash', { command: 'false' });
    expect(r.forModel).toMatch(/^\(no output\)\nExit code: 1 \(the command failed without printing why/);
  });

  it('bash - a timeout kills the whole process group', async () => {
    const marker = join(repo.root, 'late');
    const r = await call(repo.ctx, 'Bash', { command: `(sleep 2; touch ${marker}) & sleep 5`, timeout: '1000' });
    expect(r).toMatchObject({
      isError: true,
      errorKind: 'timeout',
      forModel:
        '(no output)\nCommand timed out after 1000 ms and was killed (with its child processes). Use a longer timeout (max 600000) or a faster command.',
      effects: [{ type: 'exec', timedOut: true }],
    });
    await new Promise((res) => setTimeout(res, 1500));
    expect(existsSync(marker)).toBe(false);
  });

  it('bash - passes the default timeout of 2 minutes and refuses more than 10', async () => {
    let seen: ExecRequest | undefined;
    const ctx = {
      ...repo.ctx,
      exec: async (req: ExecRequest) => (
        (seen = req),
        {
          exitCode: 0,
          output: 'ok',
          stdout: 'ok',
          stderr: '',
          timedOut: false,
          cancelled: false,
          durationMs: 1,
          truncated: false,
          sandbox: 'none' as const,
        }
      ),
    };
    await call(ctx, 'Bash', { command: 'x' });
    expect(seen?.timeoutMs).toBe(120000);
    expect(seen?.cwd).toBe(repo.root);
    const r = await call(ctx, 'Bash', { command: 'x', timeout: 900000 });
    expect(r).toEqual({
      isError: true,
      errorKind: 'invalid_input',
      forModel: 'Invalid input for Bash:\n- timeout: must be <= 600000\nFix this field and call Bash again.',
    });
  });

  it('bash - an exec port failure is an exec_failed result', async () => {
    const ctx = { ...repo.ctx, exec: async () => Promise.reject(new Error('spawn bash ENOENT')) };
    const r = await call(ctx, 'Bash', { command: 'x' });
    expect(r).toMatchObject({ isError: true, errorKind: 'exec_failed', forModel: 'The command could not be started: spawn bash ENOENT' });
  });

  it('bash - cd does not carry over: every call starts at the root, and the description says so', async () => {
    repo.write('sub/file.txt', 'x');
    expect((await call(repo.ctx, 'Bash', { command: 'cd sub && pwd' })).forModel).toBe(`${join(repo.root, 'sub')}\nExit code: 0`);
    expect((await call(repo.ctx, 'Bash', { command: 'pwd' })).forModel).toBe(`${repo.root}\nExit code: 0`);
    expect(bashTool.description).toContain('Each call is a fresh shell: `cd` and variables do not carry over.');
  });
});
