import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpJsonSchema, type McpServerSpec } from '../../config/mcp-servers.js';
import type { ToolDefinition } from '../define-tool.js';
import { mcpTool } from './mcp-tools.js';
import { startMcpServer, type McpConnection, type StartOptions } from './start-server.js';

/** The started servers' tools (deferred), what failed to start, and how to stop them all. */
export interface McpTools {
  tools: ToolDefinition[];
  failures: { server: string; error: string }[];
  close(): Promise<void>;
}

/** The servers `.mcp.json` lists, or undefined when there is none. A file that does not parse is an error naming the field. */
export function readMcpJson(root: string): Record<string, McpServerSpec> | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, '.mcp.json'), 'utf8');
  } catch {
    return undefined;
  }
  let parsed;
  try {
    parsed = mcpJsonSchema.safeParse(JSON.parse(text));
  } catch (e) {
    throw new Error(`.mcp.json is not valid JSON (${(e as Error).message}); fix it or remove it`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `.mcp.json: ${issue?.path.join('.') ?? 'mcpServers'}: ${issue?.message ?? 'invalid'} (expected { "mcpServers": { "<name>": { "command": "…", "args": […] } } })`,
    );
  }
  return parsed.data.mcpServers;
}

/**
 * The servers of a run: the config's `mcp_servers`; the repository's `.mcp.json` only when the config opts
 * in (`mcp.repository_servers: true`), then its servers the config does not name (the config wins). Without
 * the opt-in `.mcp.json` is not read at all: what the repository lists never starts on its own.
 */
export function mcpServersOf(
  root: string,
  configured: Record<string, McpServerSpec>,
  repositoryServers: boolean,
): Record<string, McpServerSpec> {
  if (!repositoryServers) return configured;
  return { ...(readMcpJson(root) ?? {}), ...configured };
}

/** Starts every server (in parallel); one that does not start is reported, not fatal: the run goes on without it. */
export async function startMcpTools(servers: Record<string, McpServerSpec>, o: StartOptions): Promise<McpTools> {
  const names = Object.keys(servers).sort();
  const started = await Promise.allSettled(names.map((n) => startMcpServer(n, servers[n]!, o)));
  const conns: McpConnection[] = [];
  const failures: McpTools['failures'] = [];
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') conns.push(r.value);
    else failures.push({ server: names[i]!, error: (r.reason as Error).message });
  });
  return {
    tools: conns.flatMap((c) => c.tools.map((t) => mcpTool(c, t))),
    failures,
    close: async () => void (await Promise.all(conns.map((c) => c.close()))),
  };
}
