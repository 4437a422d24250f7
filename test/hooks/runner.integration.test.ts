import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig, type RepoConfig } from '../../src/config/repo-config.js';
import { createHookRunner } from '../../src/agent/hooks/runner.js';
import { silentLogger } from '../../src/log.js';
import { execsOn } from './helpers.js';

const hooksFrom = (yaml: string): RepoConfig['hooks'] => parseRepoConfig(yaml).hooks;

describe('createHookRunner', () => {
  const { root, exec: newExec } = execsOn('proofpr-hooks-');

  const runner = async (yaml: string) => {
    const exec = await newExec();
    return { exec, hooks: createHookRunner({ config: hooksFrom(yaml), exec, root, logger: silentLogger }) };
  };

  it('hooks - exit 2 blocks with stderr as the reason', async () => {
    const { hooks } = await runner('hooks:\n  PreToolUse:\n    - command: "echo nope >&2; exit 2"\n');
    const out = await hooks.run('PreToolUse', {
      hook_event_name: 'PreToolUse',
      cwd: root,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(out).toEqual([{ kind: 'block', hook: 'echo nope >&2; exit 2', reason: 'nope' }]);
  });

  it('hooks - exit 0 with JSON additionalContext adds context; plain stdout does so only for prompt events', async () => {
    const { hooks } = await runner(
      'hooks:\n  PostToolUse:\n    - command: "echo \'{\\"additionalContext\\": \\"formatted\\"}\'"\n    - command: "echo plain"\n  SessionStart:\n    - command: "echo use pnpm"\n',
    );
    const post = await hooks.run('PostToolUse', {
      hook_event_name: 'PostToolUse',
      cwd: root,
      tool_name: 'Edit',
      tool_input: { file_path: 'a.js' },
      tool_response: { output: 'ok', is_error: false },
    });
    expect(post).toEqual([{ kind: 'context', hook: expect.any(String), text: 'formatted' }, { kind: 'continue' }]);
    const start = await hooks.run('SessionStart', { hook_event_name: 'SessionStart', cwd: root });
    expect(start).toEqual([{ kind: 'context', hook: 'echo use pnpm', text: 'use pnpm' }]);
  });

  it('hooks - another exit code is a non-blocking error with the output tail', async () => {
    const { hooks } = await runner('hooks:\n  Stop:\n    - command: "echo lint failed >&2; exit 1"\n');
    const out = await hooks.run('Stop', { hook_event_name: 'Stop', cwd: root });
    expect(out).toEqual([{ kind: 'error', hook: 'echo lint failed >&2; exit 1', message: 'exit code 1: lint failed' }]);
  });

  it('hooks - the matcher is an anchored regex on the tool name; no matcher means every tool', async () => {
    const { hooks, exec } = await runner(
      'hooks:\n  PreToolUse:\n    - matcher: "Edit|Write"\n      command: "exit 0"\n    - command: "true"\n',
    );
    await hooks.run('PreToolUse', { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'MultiEdit' });
    expect(exec.calls.map((c) => c.command)).toEqual(['true']);
    await hooks.run('PreToolUse', { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Write' });
    expect(exec.calls.map((c) => c.command)).toEqual(['true', 'exit 0', 'true']);
  });

  it('hooks - an invalid matcher (the config refuses it at load; a caller may skip that) is an error naming the config path', async () => {
    const exec = await newExec();
    const config = hooksFrom('hooks:\n  PreToolUse:\n    - matcher: "Edit"\n      command: "true"\n');
    const broken = { ...config, PreToolUse: config.PreToolUse.map((h) => ({ ...h, matcher: 'Edit(' })) };
    const hooks = createHookRunner({ config: broken, exec, root, logger: silentLogger });
    const [o] = await hooks.run('PreToolUse', { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Edit' });
    expect(o?.kind).toBe('error');
    expect(o?.kind === 'error' && o.message).toContain('hooks.PreToolUse[0].matcher');
  });

  it('hooks - the runner records a block, an error and added context as hook events (continue is not recorded)', async () => {
    const exec = await newExec();
    const events: unknown[] = [];
    const yaml =
      'hooks:\n  PostToolUse:\n    - command: "echo no >&2; exit 2"\n    - command: "exit 0"\n    - command: "echo \'{\\"additionalContext\\": \\"lint is clean\\"}\'"\n';
    const hooks = createHookRunner({ config: hooksFrom(yaml), exec, root, logger: silentLogger, onEvent: (e) => events.push(e) });
    const outcomes = await hooks.run('PostToolUse', { hook_event_name: 'PostToolUse', cwd: root, tool_name: 'Edit' });
    expect(outcomes.map((o) => o.kind)).toEqual(['block', 'continue', 'context']);
    expect(events).toEqual([
      { type: 'hook', event: 'PostToolUse', name: 'echo no >&2; exit 2', outcome: 'block', message: 'no' },
      expect.objectContaining({ type: 'hook', event: 'PostToolUse', outcome: 'context', message: 'lint is clean' }),
    ]);
  });

  it('hooks - a hook over its timeout_sec is an error and does not block', async () => {
    const { hooks } = await runner('hooks:\n  Stop:\n    - command: "sleep 5"\n      timeout_sec: 1\n');
    const started = Date.now();
    const out = await hooks.run('Stop', { hook_event_name: 'Stop', cwd: root });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(out).toEqual([{ kind: 'error', hook: 'sleep 5', message: expect.stringContaining('timed out after 1s') }]);
  });

  it('hooks - the event arrives as JSON on stdin and file tools get PROOFPR_FILE (absolute)', async () => {
    const payloadFile = join(root, 'payload.json');
    const { hooks, exec } = await runner(
      `hooks:\n  PostToolUse:\n    - matcher: Edit\n      command: 'cat > ${payloadFile}; echo "$PROOFPR_FILE" > ${payloadFile}.file'\n`,
    );
    await hooks.run('PostToolUse', {
      hook_event_name: 'PostToolUse',
      cwd: root,
      tool_name: 'Edit',
      tool_input: { file_path: 'src/a.js', old_string: 'a', new_string: 'b' },
      tool_response: { output: 'edited', is_error: false },
    });
    const payload = JSON.parse(readFileSync(payloadFile, 'utf8')) as Record<string, unknown>;
    expect(payload).toEqual({
      hook_event_name: 'PostToolUse',
      cwd: root,
      tool_name: 'Edit',
      tool_input: { file_path: 'src/a.js', old_string: 'a', new_string: 'b' },
      tool_response: { output: 'edited', is_error: false },
    });
    expect(readFileSync(`${payloadFile}.file`, 'utf8').trim()).toBe(join(root, 'src/a.js'));
    expect(exec.calls[0]).toMatchObject({ cwd: root, timeoutMs: 60_000, extraEnv: { PROOFPR_FILE: join(root, 'src/a.js') } });
  });

  it('hooks - secrets of the harness never reach the hook environment', async () => {
    const saved = { a: process.env.ANTHROPIC_API_KEY, g: process.env.GITHUB_TOKEN };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret';
    process.env.GITHUB_TOKEN = 'ghs_testsecret';
    try {
      const envFile = join(root, 'hook-env.txt');
      const { hooks, exec } = await runner(`hooks:\n  PreToolUse:\n    - command: 'env > ${envFile}'\n`);
      await hooks.run('PreToolUse', { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash', tool_input: { command: 'ls' } });
      const env = readFileSync(envFile, 'utf8');
      expect(env).toContain('PATH=');
      expect(env).not.toContain('sk-ant-test-secret');
      expect(env).not.toContain('ghs_testsecret');
      expect(exec.calls[0]?.extraEnv).toEqual({});
    } finally {
      if (saved.a === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.a;
      if (saved.g === undefined) delete process.env.GITHUB_TOKEN;
      else process.env.GITHUB_TOKEN = saved.g;
    }
  });

  it('hooks - JSON decision block blocks too, and every hook still runs', async () => {
    const { hooks, exec } = await runner(
      'hooks:\n  Stop:\n    - command: "echo \'{\\"decision\\":\\"block\\",\\"reason\\":\\"changelog missing\\"}\'"\n    - command: "true"\n',
    );
    const out = await hooks.run('Stop', { hook_event_name: 'Stop', cwd: root });
    expect(out[0]).toEqual({ kind: 'block', hook: expect.any(String), reason: 'changelog missing' });
    expect(exec.calls).toHaveLength(2);
  });

  it('hooks - an event with no hooks configured returns nothing', async () => {
    const { hooks, exec } = await runner('');
    expect(await hooks.run('PreCompact', { hook_event_name: 'PreCompact', cwd: root })).toEqual([]);
    expect(exec.calls).toHaveLength(0);
  });
});
