/**
 * `mcp_servers:` in .github/proofpr.yml (CONTRACT §10) and `mcpServers` in a repository's `.mcp.json`
 * (started only with `mcp.repository_servers: true`, CONTRACT §11): stdio MCP servers started inside the
 * sandbox; their tools are named `mcp__<name>__<tool>`, and each runs only when an allow rule names it.
 */
import { z } from 'zod';

/** A server name: letters, digits, `-` and single `_` (the `__` separates server and tool in tool names). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

export const mcpServerSchema = z
  .object({
    command: z.string().min(1).describe('the program that starts the server (run in the worktree, inside the sandbox, without network)'),
    args: z.array(z.string()).default([]).describe('its arguments'),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string())
      .default({})
      .describe('extra environment variables for the server (plain values, never secrets)'),
  })
  .strict();

export type McpServerSpec = z.infer<typeof mcpServerSchema>;

export const mcpServersSchema = z
  .record(
    z.string().regex(MCP_SERVER_NAME, 'an MCP server name is letters, digits, "-" and single "_" (e.g. "docs" or "issue-db")'),
    mcpServerSchema,
  )
  .default({})
  .describe(
    'stdio MCP servers by name: `{ command, args, env }`, started in the sandbox (no network); tools named `mcp__<name>__<tool>`, their schemas loaded on demand through ToolSearch',
  );

/** `mcp:` (CONTRACT §11): which servers start besides the config's own `mcp_servers`. */
export const mcpOptionsSchema = z
  .object({
    repository_servers: z
      .boolean()
      .default(false)
      .describe(
        "start the servers listed in the repository's `.mcp.json` too (the config's `mcp_servers` win on a name); otherwise `.mcp.json` is ignored and only `mcp_servers` start",
      ),
  })
  .strict()
  .default({ repository_servers: false });

/** `.mcp.json` as Claude Code writes it: `{ "mcpServers": { name: { command, args, env } } }` (other keys ignored). */
export const mcpJsonSchema = z.object({ mcpServers: z.record(z.string().regex(MCP_SERVER_NAME), mcpServerSchema).default({}) });
