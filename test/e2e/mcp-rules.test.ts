/**
 * One set of rules for the MCP tools a run offers (issue 37).
 *
 * The rule the cases are written by, before the mechanism was built: every MCP tool call a run can make,
 * that is each tool of a server named in the config (`mcp_servers`) and of a server listed only in the
 * repository's `.mcp.json`, with each read-only declaration a server can make (`annotations.readOnlyHint`
 * true, false, or absent), in fix and in plan mode, with no rule, with a rule naming the tool and with a
 * rule naming the whole server, and `.mcp.json` without and with the config's opt-in
 * (`mcp.repository_servers: true`). 2 × 3 × 3 × 2 = 36 calls a server, 72 calls in 12 runs.
 *
 * Expected (CONTRACT §11): a call runs only when its server was started (named in the config, or in
 * `.mcp.json` with the opt-in), an allow rule names the tool (or its server), and, in plan mode, the
 * server declared the tool read-only. Anything else is refused, with the rule to add when a rule is missing.
 *
 * First try (the code before this mechanism): see docs/benchmarks.md, "One budget for everything the run starts".
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { RunEvent } from '../../src/agent/events.js';
import { text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { commitAll, fixtureRepo, MEDIAN_ISSUE, runIssue, writeFiles } from './helpers.js';

/** A stdio MCP server (newline-delimited JSON-RPC): three tools, each declared read-only, not, or neither. */
const SERVER = `import { createInterface } from 'node:readline';
const tools = [
  { name: 'lookup', description: 'looks a word up', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'save', description: 'saves a note', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
  { name: 'plain', description: 'does a thing', inputSchema: { type: 'object' } },
];
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  if (req.id === undefined) return;
  if (req.method === 'initialize')
    return send({ id: req.id, result: { protocolVersion: req.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
  if (req.method === 'tools/list') return send({ id: req.id, result: { tools } });
  if (req.method === 'tools/call') return send({ id: req.id, result: { content: [{ type: 'text', text: 'RAN ' + req.params.name }] } });
  send({ id: req.id, error: { code: -32601, message: 'unknown method' } });
});
`;

const TOOLS = ['lookup', 'save', 'plain'] as const;
const READ_ONLY: Record<(typeof TOOLS)[number], boolean> = { lookup: true, save: false, plain: false };
const SERVERS = ['cfg', 'repo'] as const;
type Rules = 'none' | 'tool' | 'server';

function rulesOf(rules: Rules): string[] {
  if (rules === 'none') return [];
  if (rules === 'server') return SERVERS.map((s) => `mcp__${s}`);
  return SERVERS.flatMap((s) => TOOLS.map((t) => `mcp__${s}__${t}`));
}

function configOf(rules: Rules, optIn: boolean) {
  const allow = ['Bash(node --test:*)', ...rulesOf(rules)];
  return parseRepoConfig(
    [
      'test:\n  command: node --test',
      `permissions:\n  allow: ${JSON.stringify(allow)}`,
      'mcp_servers:\n  cfg:\n    command: node\n    args: ["tools/mcp-server.mjs"]',
      optIn ? 'mcp:\n  repository_servers: true' : '',
    ].join('\n'),
  );
}

const calls = SERVERS.flatMap((s) => TOOLS.map((t) => `mcp__${s}__${t}`));
const script: ScriptStep[] = [
  { content: [toolUse('ToolSearch', { query: `select:${calls.join(',')}`, max_results: calls.length }, 'search')] },
  { content: calls.map((c, i) => toolUse(c, { word: 'median' }, `call_${i}`)) },
  { content: [text('done')] },
];

type Outcome = 'ran' | 'refused' | 'not offered';

function outcomes(events: RunEvent[]): Record<string, { outcome: Outcome; message: string }> {
  const out: Record<string, { outcome: Outcome; message: string }> = {};
  for (const e of events) {
    if (e.type !== 'tool_result' || !e.name.startsWith('mcp__')) continue;
    const preview = e.preview ?? '';
    const outcome: Outcome = !e.isError && preview.startsWith('RAN') ? 'ran' : e.errorKind === 'denied' ? 'refused' : 'not offered';
    out[e.name] = { outcome, message: preview };
  }
  return out;
}

const cases: Array<[mode: 'fix' | 'plan', rules: Rules, optIn: boolean]> = [];
for (const mode of ['fix', 'plan'] as const)
  for (const rules of ['none', 'tool', 'server'] as const) for (const optIn of [false, true]) cases.push([mode, rules, optIn]);

const tally = { calls: 0, asExpected: 0, ranWithoutRule: 0, ranWritingInPlan: 0, repoServerRanWithoutOptIn: 0 };

describe('MCP tools: allow rules, plan mode, .mcp.json opt-in', () => {
  it.each(cases)(
    'mcp-rules - %s mode, rules: %s, .mcp.json opt-in: %s',
    async (mode, rules, optIn) => {
      const repo = fixtureRepo();
      writeFiles(repo.dir, {
        'tools/mcp-server.mjs': SERVER,
        '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: 'node', args: ['tools/mcp-server.mjs'] } } }),
      });
      commitAll(repo.dir, 'mcp servers');
      const events: RunEvent[] = [];
      await runIssue(repo, {
        issue: MEDIAN_ISSUE,
        branch: 'proofpr/7-median',
        config: configOf(rules, optIn),
        script,
        mode,
        onEvent: (e) => events.push(e),
      });
      const got = outcomes(events);
      const wrong: unknown[] = [];
      for (const s of SERVERS)
        for (const t of TOOLS) {
          const name = `mcp__${s}__${t}`;
          const started = s === 'cfg' || optIn;
          const ruled = rules !== 'none';
          const expected: Outcome = !started ? 'not offered' : ruled && (mode === 'fix' || READ_ONLY[t]) ? 'ran' : 'refused';
          const actual = got[name]?.outcome ?? 'not offered';
          tally.calls++;
          if (actual === expected) tally.asExpected++;
          if (actual === 'ran' && !ruled) tally.ranWithoutRule++;
          if (actual === 'ran' && mode === 'plan' && !READ_ONLY[t]) tally.ranWritingInPlan++;
          if (actual === 'ran' && s === 'repo' && !optIn) tally.repoServerRanWithoutOptIn++;
          if (actual !== expected) wrong.push({ name, expected, actual });
          // A refusal names what to do: the rule to add, or why plan mode refuses the tool.
          const why = !ruled ? `"${name}"` : 'readOnlyHint';
          if (expected === 'refused' && actual === 'refused' && !got[name]!.message.includes(why))
            wrong.push({ name, message: got[name]!.message });
        }
      expect(wrong).toEqual([]);
      // Without the opt-in, a notice names the servers .mcp.json lists that were left out.
      const notices = events.flatMap((e) => (e.type === 'notice' && e.message.includes('.mcp.json') ? [e.message] : []));
      expect(notices).toEqual(optIn ? [] : [expect.stringContaining('.mcp.json lists MCP servers (repo) that were not started')]);
    },
    180_000,
  );

  afterAll(() => void process.stdout.write(`mcp-rules tally: ${JSON.stringify(tally)}\n`));
});
