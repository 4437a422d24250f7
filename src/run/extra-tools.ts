import { join } from 'node:path';
import type { RunSpend } from '../agent/budget.js';
import type { EventQueue } from '../agent/events.js';
import type { HookRunner } from '../agent/hooks/types.js';
import { createTaskTool } from '../agent/subagent/task-tool.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import type { McpServerSpec } from '../config/mcp-servers.js';
import { mcpServersOf, readMcpJson, startMcpTools } from '../tools/mcp/start-mcp-tools.js';
import { costUsd } from '../model/pricing.js';
import { logger } from '../log.js';
import type { RunStep } from './run-step.js';

const log = logger('run-task');

/** How long an MCP server may take to start and list its tools. */
const MCP_START_TIMEOUT_MS = 30_000;

/**
 * The tools beyond the built-in ones: Task (a read-only sub-agent under the same permission rules in plan
 * mode) and the tools of the configured MCP servers (config `mcp_servers`; the repository's `.mcp.json`
 * only with `mcp.repository_servers: true`),
 * started through the run's exec, so inside the sandbox; they die with it. A server that does not start is
 * said in a notice and the run goes on without it.
 */
export async function extraTools(
  { input, settings, ws, exec, transcripts }: RunStep,
  hooks: HookRunner,
  events: EventQueue,
  spend?: RunSpend,
): Promise<ToolDefinition[]> {
  const { config } = input;
  const task = await createTaskTool({
    model: input.model,
    modelId: input.modelId,
    hooks,
    events,
    costOf: (u) => costUsd(input.modelId, u),
    policy: { root: ws.wt.path, allow: settings.permissions.allow, deny: settings.permissions.deny, gitDirs: [ws.wt.gitDir] },
    ...(spend ? { spend } : {}),
    ...(transcripts ? { transcripts } : {}),
  });
  const servers = serversOf(ws.wt.path, config, events);
  if (Object.keys(servers).length === 0) return [task];
  const mcp = await startMcpTools(servers, {
    exec,
    root: ws.wt.path,
    pipeDir: join(ws.runTmp, 'tmp'),
    startTimeoutMs: MCP_START_TIMEOUT_MS,
    lifetimeMs: settings.limits.timeoutMs,
    logger: log,
  });
  for (const f of mcp.failures)
    events.push({ type: 'notice', message: `MCP server "${f.server}" did not start; its tools are not available: ${f.error}` });
  return [task, ...mcp.tools];
}

/**
 * The servers this run starts: the config's `mcp_servers`, and `.mcp.json`'s only with the config's opt-in
 * (`mcp.repository_servers: true`). Servers `.mcp.json` lists without the opt-in are named in a notice.
 */
function serversOf(root: string, config: RunStep['input']['config'], events: EventQueue): Record<string, McpServerSpec> {
  if (!config.mcp.repository_servers) {
    let listed: string[] = [];
    try {
      listed = Object.keys(readMcpJson(root) ?? {}).filter((n) => !(n in config.mcp_servers));
    } catch {
      // Not read, not started: a broken .mcp.json matters only to a config that opts in.
    }
    if (listed.length)
      events.push({
        type: 'notice',
        message: `.mcp.json lists MCP servers (${listed.join(', ')}) that were not started: only servers named in the config start (mcp_servers, or mcp.repository_servers: true for .mcp.json's)`,
      });
    return config.mcp_servers;
  }
  try {
    return mcpServersOf(root, config.mcp_servers, true);
  } catch (e) {
    events.push({ type: 'notice', message: `No MCP server from .mcp.json: ${(e as Error).message}` });
    return config.mcp_servers;
  }
}
