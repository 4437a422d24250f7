import { z } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, NO_ACCESS, type ToolDefinition, type ToolResult } from '../define-tool.js';
import type { McpConnection } from './start-server.js';

/** How long one MCP tool call may run. */
export const MCP_CALL_TIMEOUT_MS = 120_000;

/** The name the model calls: `mcp__<server>__<tool>` (permission rules use it too). */
export const mcpToolName = (server: string, tool: string): string => `mcp__${server}__${tool}`;

/** The server validates its own input: the harness only checks that it is an object. */
const openInput = z.record(z.string(), z.unknown());

/** A call result's content as text: text blocks as they are, anything else described in one line. */
function contentText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((c) => {
    if (c.type === 'text') return c.text;
    if (c.type === 'resource') return `[resource ${c.resource.uri}]${'text' in c.resource ? `\n${String(c.resource.text)}` : ''}`;
    if (c.type === 'resource_link') return `[resource link ${c.uri}]`;
    return `[${c.type} content, ${'mimeType' in c ? String(c.mimeType) : 'binary'}: not shown]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/**
 * One server tool as a thin pass-through (seed 003 §1.4): its name, description and input schema as the
 * server gave them, deferred until ToolSearch loads it, the arguments passed on unchanged, the result's
 * text returned. `execute` kind: it runs alone, and the policy runs it only when an allow rule names it
 * (in plan mode, only when the server also declares it read-only).
 */
export function mcpTool(conn: McpConnection, tool: Tool): ToolDefinition {
  const name = mcpToolName(conn.name, tool.name);
  return defineTool({
    name,
    description: `${tool.description ?? tool.title ?? tool.name} (MCP server ${conn.name})`,
    input: openInput,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    deferred: true,
    kind: 'execute',
    // The server's own declaration; only plan mode reads it, and only for a tool a rule allows.
    ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    access: () => NO_ACCESS,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const result = (await conn.call(tool.name, args, ctx.signal, MCP_CALL_TIMEOUT_MS)) as CallToolResult;
        const text = contentText(result) || '(no output)';
        return result.isError ? { forModel: text, isError: true, errorKind: 'exit_code' } : { forModel: text, isError: false };
      } catch (e) {
        if (ctx.signal.aborted) return { forModel: 'Not finished: the run was cancelled.', isError: true, errorKind: 'cancelled' };
        return { forModel: `${name} failed: ${(e as Error).message}`, isError: true, errorKind: 'exec_failed' };
      }
    },
  }) as ToolDefinition;
}
