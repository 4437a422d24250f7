/**
 * Hook events through the loop with the scripted model (issue 26): UserPromptSubmit sees the prompt and
 * adds context (or refuses the task), SessionEnd hears how the run ended, PostCompact runs after a
 * compaction, and `on_failure: block` makes a hook that cannot run block the tool call instead of passing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { createHookRunner } from '../../src/agent/hooks/runner.js';
import { runAgent } from '../../src/agent/loop.js';
import type { RunEventInput } from '../../src/agent/events.js';
import type { ToolResultBlock } from '../../src/model/model-client.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { silentLogger } from '../../src/log.js';
import { agentDeps, baseToolContext, collect, stubToolbox } from '../agent/helpers.js';
import { execsOn } from './helpers.js';

describe('hook events through the loop', () => {
  const { root, exec: newExec } = execsOn('proofpr-hook-loop-');

  async function setup(yaml: string, script: ScriptStep[], echoCalls: string[] = []) {
    const exec = await newExec();
    const hookEvents: RunEventInput[] = [];
    const hooks = createHookRunner({
      config: parseRepoConfig(yaml).hooks,
      exec,
      root,
      logger: silentLogger,
      onEvent: (e) => hookEvents.push(e),
    });
    const model = createScriptedModel(script);
    const toolbox = stubToolbox({
      Read: (i) => {
        echoCalls.push(String(i.say));
        return { forModel: `echo:${String(i.say)}`, isError: false };
      },
    });
    const deps = agentDeps({
      model,
      toolbox,
      hooks,
      toolContext: baseToolContext(root),
      budget: { maxTurns: 10, maxCostUsd: 5, timeoutMs: 60_000 },
      costOf: () => 0,
      maxStopBlocks: 1,
      branch: 'proofpr/1-hooks',
    });
    return { deps, model, hookEvents, hooks };
  }

  const READ_STDIN = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{`;

  it('on_failure: block - a PreToolUse hook that cannot run blocks the call; the default lets it through as an error', async () => {
    const calls: string[] = [];
    const yaml = ['hooks:', '  PreToolUse:', '    - { matcher: Read, command: "proofpr-no-such-guard --check", on_failure: block }'].join(
      '\n',
    );
    const { deps, model, hookEvents } = await setup(
      yaml,
      [{ content: [toolUse('Read', { say: 'hi' }, 't1')] }, { content: [text('done')] }],
      calls,
    );
    const { result } = await collect(runAgent({ prompt: 'go' }, deps));
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    const res = model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[];
    expect(res[0]).toMatchObject({ tool_use_id: 't1', is_error: true });
    expect(res[0]!.content).toMatch(
      /Blocked by the repository's PreToolUse hook .*the hook could not run \(on_failure: block\): exit code 127/,
    );
    expect(hookEvents).toContainEqual(expect.objectContaining({ type: 'hook', event: 'PreToolUse', outcome: 'block' }));

    const open: string[] = [];
    const lenient = await setup(
      yaml.replace('on_failure: block', 'on_failure: continue'),
      [{ content: [toolUse('Read', { say: 'hi' }, 't1')] }, { content: [text('done')] }],
      open,
    );
    await collect(runAgent({ prompt: 'go' }, lenient.deps));
    expect(open).toEqual(['hi']);
    expect(lenient.hookEvents).toContainEqual(expect.objectContaining({ event: 'PreToolUse', outcome: 'error' }));
  });

  it('UserPromptSubmit - the hook reads the prompt on stdin and its output joins the first message', async () => {
    const yaml = `hooks:\n  SessionStart:\n    - command: "echo from-session-start"\n  UserPromptSubmit:\n    - command: ${JSON.stringify(`${READ_STDIN}console.log('prompt seen: '+JSON.parse(s).prompt)})"`)}\n`;
    const { deps, model } = await setup(yaml, [{ content: [text('done')] }]);
    await collect(runAgent({ prompt: 'fix the parser' }, deps));
    const first = model.requests[0]!.messages[0]!.content;
    expect(first).toBe('fix the parser\n\nfrom-session-start\nprompt seen: fix the parser');
  });

  it('UserPromptSubmit - a block refuses the task before any model request', async () => {
    const yaml = 'hooks:\n  UserPromptSubmit:\n    - command: "echo no tasks on Fridays >&2; exit 2"\n';
    const { deps, model } = await setup(yaml, [{ content: [text('done')] }]);
    const { result } = await collect(runAgent({ prompt: 'go' }, deps));
    expect(result.status).toBe('aborted');
    expect(result.reason).toBe('a UserPromptSubmit hook refused the task: no tasks on Fridays');
    expect(model.requests).toHaveLength(0);
  });

  it('SessionEnd - runs once when the run ends, told the status and the reason', async () => {
    const out = join(root, 'session-end.json');
    const yaml = `hooks:\n  SessionEnd:\n    - command: ${JSON.stringify(`${READ_STDIN}require('fs').appendFileSync('${out}', s+'\\n')})"`)}\n`;
    const { deps } = await setup(yaml, [{ content: [text('done')] }]);
    const { result } = await collect(runAgent({ prompt: 'go' }, deps));
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ hook_event_name: 'SessionEnd', status: 'completed', reason: result.reason, cwd: root });
  });

  it('PostCompact - runs after a compaction replaced the history, with its sizes', async () => {
    const out = join(root, 'post-compact.json');
    const yaml = `hooks:\n  PostCompact:\n    - command: ${JSON.stringify(`${READ_STDIN}require('fs').writeFileSync('${out}', s)})"`)}\n`;
    const { deps, hooks } = await setup(yaml, [
      { content: [toolUse('Read', { say: 'x' }, 't1')] },
      { error: 'prompt_too_long', message: 'prompt is too long' },
      { content: [text('done')] },
    ]);
    // The wiring of run/assemble-agent.ts: the context manager's afterCompact runs the PostCompact hooks.
    const base = deps.context;
    deps.context = {
      ...base,
      forceCompact: async (m, s, c) => {
        const r = await base.forceCompact(m, s, c);
        const compaction = { kind: r.kind, before_tokens: r.beforeTokens, after_tokens: r.afterTokens };
        if (r.ok) await hooks.run('PostCompact', { hook_event_name: 'PostCompact', cwd: root, compaction });
        return r;
      },
    };
    await collect(runAgent({ prompt: 'go' }, deps));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ hook_event_name: 'PostCompact', compaction: { kind: 'clear' } });
  });
});
