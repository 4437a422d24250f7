import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgent } from '../../src/agent/loop.js';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { ModelRequest, ToolResultBlock, ToolSchema } from '../../src/model/model-client.js';
import { createRegistry } from '../../src/tools/registry.js';
import { defaultTools } from '../../src/tools/index.js';
import { mcpServersOf, startMcpTools, type McpTools } from '../../src/tools/mcp/start-mcp-tools.js';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { silentLogger } from '../../src/log.js';
import { agentDeps, baseToolContext, collect } from './helpers.js';
import { tempDir } from '../kit/temp.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp', 'fifty-tools-server.mjs');
const tokens = (tools: ToolSchema[]): number => Math.ceil(JSON.stringify(tools).length / 4);
const names = (req: ModelRequest): string[] => req.tools.map((t) => t.name);

function results(req: ModelRequest): ToolResultBlock[] {
  const last = req.messages[req.messages.length - 1]!;
  return Array.isArray(last.content) ? (last.content.filter((b) => b.type === 'tool_result') as ToolResultBlock[]) : [];
}

let root: string;
let pipes: string;
let handle: ExecHandle;
let mcp: McpTools;

beforeAll(async () => {
  const base = tempDir('proofpr-mcp-');
  root = join(base, 'repo');
  execFileSync('git', ['init', '-q', root]);
  // The server lives in the repository: the sandbox shows the worktree, not the folder this test file is in
  // (a checkout under /tmp is hidden behind the sandbox's private /tmp).
  const server = join(root, 'tools', 'docs-server.mjs');
  mkdirSync(dirname(server), { recursive: true });
  copyFileSync(SERVER, server);
  writeFileSync(
    join(root, '.mcp.json'),
    JSON.stringify({ mcpServers: { docs: { command: 'node', args: [server], env: { MCP_FLAG: 'on' } } } }),
  );
  handle = await createExec({ root, runTmp: join(base, 'run-tmp'), sandbox: 'required' });
  mcp = await startMcpTools(mcpServersOf(root, {}, true), {
    exec: handle.exec,
    root,
    pipeDir: (pipes = join(base, 'run-tmp', 'tmp')),
    startTimeoutMs: 20_000,
    lifetimeMs: 120_000,
    logger: silentLogger,
  });
});

afterAll(async () => {
  await mcp?.close();
  await handle?.dispose();
});

describe('MCP servers with deferred tool loading, through the loop', () => {
  it('mcp - 50 server tools stay out of the first request; ToolSearch loads one; its call passes through; rules apply by name', async () => {
    expect(mcp.failures).toEqual([]);
    expect(mcp.tools).toHaveLength(50);
    const script: ScriptStep[] = [
      {
        content: [
          toolUse('mcp__docs__tool_07', { text: 'early' }, 'c0'),
          toolUse('ToolSearch', { query: 'select:mcp__docs__tool_07' }, 'c1'),
        ],
      },
      {
        content: [toolUse('mcp__docs__tool_07', { text: 'hi' }, 'c2'), toolUse('ToolSearch', { query: 'topic 13', max_results: 1 }, 'c3')],
      },
      {
        content: [toolUse('mcp__docs__tool_13', { text: 'x' }, 'c4'), toolUse('ToolSearch', { query: 'select:mcp__docs__tool_49' }, 'c5')],
      },
      { content: [toolUse('mcp__docs__tool_49', { text: 'y' }, 'c6')] },
      { content: [text('done')] },
    ];
    const model = createScriptedModel(script);
    const toolbox = createRegistry([...defaultTools(), ...mcp.tools]);
    const policy = await createPolicy({ root, mode: 'default', allow: ['mcp__docs'], deny: ['mcp__docs__tool_13'], tools: toolbox });
    const deps = agentDeps({ model, toolbox, policy, toolContext: { ...baseToolContext(root), exec: handle.exec } });
    const { events, result } = await collect(runAgent({ prompt: 'use the docs server' }, deps));
    expect(result.status).toBe('completed');
    const [first, second, third, fourth] = model.requests as [ModelRequest, ModelRequest, ModelRequest, ModelRequest];

    // The first request: the core tools plus ToolSearch, no server tool; its tool tokens stay at the core set's.
    const core = createRegistry(defaultTools()).schemas();
    expect(names(first)).toEqual([...core.map((t) => t.name), 'ToolSearch']);
    const toolSearch = first.tools.find((t) => t.name === 'ToolSearch')!;
    expect(toolSearch.description).toContain('Servers with tools to load: docs (50 tools).');
    expect(tokens(first.tools) - tokens(core)).toBeLessThan(300);
    const fiftySchemas = mcp.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema ?? {} }));
    expect(tokens(fiftySchemas)).toBeGreaterThan(20 * (tokens(first.tools) - tokens(core)));

    // A server tool called before it was loaded is refused with what to do.
    expect(results(second).find((b) => b.tool_use_id === 'c0')).toMatchObject({ is_error: true });
    expect(results(second).find((b) => b.tool_use_id === 'c0')!.content).toContain(
      'Call ToolSearch with query "select:mcp__docs__tool_07" first',
    );
    expect(results(second).find((b) => b.tool_use_id === 'c1')!.content).toContain('Loaded 1 tool');

    // From the next request on, the loaded tool's schema (the server's own) is sent, at the end.
    expect(names(second)).toEqual([...names(first), 'mcp__docs__tool_07']);
    expect(second.tools.at(-1)!.input_schema).toMatchObject({ properties: { text: { type: 'string' } }, required: ['text'] });

    // The call passes through to the server, inside the sandbox: no network but loopback, its env, the worktree as cwd.
    const passed = results(third).find((b) => b.tool_use_id === 'c2')!;
    expect(passed).toEqual({
      type: 'tool_result',
      tool_use_id: 'c2',
      content: `tool_07 got {"text":"hi"} cwd=${root} env.MCP_FLAG=on net=lo`,
    });
    expect(results(third).find((b) => b.tool_use_id === 'c3')!.content).toContain('- mcp__docs__tool_13:');

    // A deny rule on the tool's name refuses it; a server-side error comes back as an error result.
    expect(results(fourth).find((b) => b.tool_use_id === 'c4')).toMatchObject({ is_error: true });
    expect(events.some((e) => e.type === 'permission' && e.tool === 'mcp__docs__tool_13' && e.behavior === 'deny')).toBe(true);
    expect(results(model.requests[4]!)[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c6',
      content: 'tool_49 always fails',
      is_error: true,
    });
  });

  it('mcp - a server-wide deny rule (mcp__docs) refuses every tool of the server through the loop; the core tools still run', async () => {
    const toolbox = createRegistry([...defaultTools(), ...mcp.tools]);
    const policy = await createPolicy({ root, mode: 'default', allow: [], deny: ['mcp__docs'], tools: toolbox });
    const model = createScriptedModel([
      { content: [toolUse('ToolSearch', { query: 'select:mcp__docs__tool_07,mcp__docs__tool_08' }, 's1')] },
      { content: [toolUse('mcp__docs__tool_07', { text: 'a' }, 'd1'), toolUse('mcp__docs__tool_08', { text: 'b' }, 'd2')] },
      { content: [toolUse('Glob', { pattern: 'tools/*.mjs' }, 'g1')] },
      { content: [text('done')] },
    ]);
    const deps = agentDeps({ model, toolbox, policy, toolContext: { ...baseToolContext(root), exec: handle.exec } });
    const { events } = await collect(runAgent({ prompt: 'use the docs server' }, deps));
    const denied = results(model.requests[2]!);
    expect(denied.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ['d1', true],
      ['d2', true],
    ]);
    expect(denied[0]!.content).toContain('permissions.deny');
    const refused = events.flatMap((e) => (e.type === 'permission' && e.behavior === 'deny' ? [e.tool] : []));
    expect(refused).toEqual(['mcp__docs__tool_07', 'mcp__docs__tool_08']);
    expect(results(model.requests[3]!)[0]).toMatchObject({ tool_use_id: 'g1', content: expect.stringContaining('tools/docs-server.mjs') });
  });

  it('mcp - a server that does not start is reported and the run goes on without it', async () => {
    const r = await startMcpTools(
      { broken: { command: 'node', args: ['-e', 'process.exit(3)'], env: {} } },
      {
        exec: handle.exec,
        root,
        pipeDir: join(pipes, 'second'),
        startTimeoutMs: 10_000,
        lifetimeMs: 20_000,
        logger: silentLogger,
      },
    );
    expect(r.tools).toEqual([]);
    expect(r.failures).toEqual([{ server: 'broken', error: expect.stringContaining('MCP server "broken" exited (code 3)') }]);
  });

  it('mcp - without the config opt-in (mcp.repository_servers) .mcp.json is not read: only the config names servers', () => {
    const dir = tempDir('proofpr-mcpjson-');
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { docs: { command: 'node', args: [] } } }));
    const cfg = { own: { command: 'node', args: ['own.mjs'], env: {} } };
    expect(mcpServersOf(dir, cfg, false)).toEqual(cfg);
    expect(Object.keys(mcpServersOf(dir, cfg, true)).sort()).toEqual(['docs', 'own']);
    writeFileSync(join(dir, '.mcp.json'), '{ not json');
    expect(mcpServersOf(dir, cfg, false)).toEqual(cfg);
  });

  it('mcp - .mcp.json that does not match the schema is an error naming the field', () => {
    const dir = tempDir('proofpr-mcpjson-');
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { docs: { args: [] } } }));
    expect(() => mcpServersOf(dir, {}, true)).toThrow(/^\.mcp\.json: mcpServers\.docs\.command: /);
  });
});
