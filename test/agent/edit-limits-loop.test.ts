import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from '../../src/agent/loop.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { ModelRequest, ToolResultBlock } from '../../src/model/model-client.js';
import { createRegistry } from '../../src/tools/registry.js';
import { defaultTools } from '../../src/tools/index.js';
import { parseRule, ruleNamesTool } from '../../src/config/permission-rule.js';
import { testExec } from '../tools/helpers/exec.js';
import { agentDeps, baseToolContext, collect } from './helpers.js';
import { tempDir } from '../kit/temp.js';

function results(req: ModelRequest): ToolResultBlock[] {
  const last = req.messages[req.messages.length - 1]!;
  return Array.isArray(last.content) ? (last.content.filter((b) => b.type === 'tool_result') as ToolResultBlock[]) : [];
}

describe('Edit quote style and the size and command caps, through the loop', () => {
  it('loop - a straight-quote Edit applies to a curly-quote file in its style; oversized Write and a 51-command Bash are refused with their limits', async () => {
    const root = tempDir('proofpr-loop-');
    writeFileSync(join(root, 'notice.txt'), 'Say \u201Chello\u201D, don\u2019t shout.\n');
    const chain = Array.from({ length: 51 }, (_, i) => `touch f${i}`).join(' && ');
    const script: ScriptStep[] = [
      { content: [toolUse('Read', { file_path: 'notice.txt' }, 'r1')] },
      {
        content: [
          toolUse(
            'Edit',
            { file_path: 'notice.txt', old_string: `Say "hello", don't shout.`, new_string: `Say "hi", don't whisper.` },
            'e1',
          ),
        ],
      },
      { content: [toolUse('Write', { file_path: 'big.txt', content: 'x'.repeat(1024 * 1024 + 1) }, 'w1')] },
      { content: [toolUse('Bash', { command: chain }, 'b1')] },
      { content: [text('done')] },
    ];
    const model = createScriptedModel(script);
    const deps = agentDeps({ model, toolbox: createRegistry(defaultTools()), toolContext: { ...baseToolContext(root), exec: testExec } });
    const { result } = await collect(runAgent({ prompt: 'go' }, deps));
    expect(result.status).toBe('completed');
    const [, , edit, write, bash] = model.requests as ModelRequest[];
    expect(results(edit!)[0]!.is_error).toBeUndefined();
    expect(readFileSync(join(root, 'notice.txt'), 'utf8')).toBe('Say \u201Chi\u201D, don\u2019t whisper.\n');
    expect(results(write!)[0]).toMatchObject({ is_error: true });
    expect(results(write!)[0]!.content).toContain("over Write's limit of 1 MiB per call");
    expect(existsSync(join(root, 'big.txt'))).toBe(false);
    expect(results(bash!)[0]).toMatchObject({ is_error: true });
    expect(results(bash!)[0]!.content).toContain('this command chains 51 commands, over the limit of 50 per Bash call');
    expect(existsSync(join(root, 'f0'))).toBe(false);
  });

  it('config - a permission rule may name an MCP tool whole or a whole server; a malformed one names the fix', () => {
    expect(parseRule('mcp__docs__search', 'permissions.deny[0]')).toEqual({ text: 'mcp__docs__search', tool: 'mcp__docs__search' });
    // A whole server: mcp__<server> or mcp__<server>__*.
    expect(parseRule('mcp__docs', 'permissions.deny[0]')).toEqual({ text: 'mcp__docs', tool: 'mcp__docs', mcpServer: 'docs' });
    expect(parseRule('mcp__issue_db__*', 'permissions.deny[0]')).toMatchObject({ mcpServer: 'issue_db' });
    expect(ruleNamesTool(parseRule('mcp__docs', 'x'), 'mcp__docs__search')).toBe(true);
    expect(ruleNamesTool(parseRule('mcp__docs', 'x'), 'mcp__docs_two__search')).toBe(false);
    expect(() => parseRule('mcp__docs__', 'permissions.deny[0]')).toThrow(
      'permissions.deny[0] "mcp__docs__": an MCP rule names one tool as mcp__<server>__<tool>, or every tool of a server as mcp__<server>',
    );
    expect(() => parseRule('mcp__docs(x)', 'permissions.deny[1]')).toThrow('an MCP tool rule takes no specifier');
    expect(() => parseRule('mcp__docs__search(x)', 'permissions.deny[1]')).toThrow('an MCP tool rule takes no specifier');
  });
});
