import { execFileSync } from 'node:child_process';
import { constants, mkdirSync, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { McpServerSpec } from '../../config/mcp-servers.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import { StreamTransport } from './stream-transport.js';

/** One started server: its tools, a call, and how to stop it. */
export interface McpConnection {
  name: string;
  tools: Tool[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): ReturnType<Client['callTool']>;
  close(): Promise<void>;
}

export interface StartOptions {
  exec: ExecPort;
  /** The worktree: the server's working directory. */
  root: string;
  /** A folder visible at the same path inside the sandbox (the run's TMPDIR): the named pipes live there. */
  pipeDir: string;
  /** How long the server may take to start and list its tools. */
  startTimeoutMs: number;
  /** The server's lifetime bound (the run's time budget). */
  lifetimeMs: number;
  logger: Logger;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A named pipe end opened without blocking, as a socket (event-driven: no thread waits on it). */
function pipeSocket(path: string, mode: 'read' | 'write'): Socket {
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const socket = new Socket({ fd, readable: mode === 'read', writable: mode === 'write' });
  socket.unref();
  return socket;
}

/**
 * Starts one stdio MCP server through the run's exec, so it runs where Bash does: inside the sandbox,
 * no network, scrubbed environment, killed with the run's processes. Its stdin and stdout are named pipes
 * in `pipeDir`; the official SDK client speaks MCP over them. Throws when it does not start in time.
 */
export async function startMcpServer(name: string, spec: McpServerSpec, o: StartOptions): Promise<McpConnection> {
  const dir = join(o.pipeDir, `mcp-${name}`);
  mkdirSync(dir, { recursive: true });
  const [inPipe, outPipe] = [join(dir, 'in'), join(dir, 'out')];
  execFileSync('mkfifo', ['-m', '600', inPipe, outPipe]);
  const stop = new AbortController();
  const command = `exec ${[spec.command, ...spec.args].map(quote).join(' ')} < ${quote(inPipe)} > ${quote(outPipe)}`;
  const running = o.exec({ command, cwd: o.root, timeoutMs: o.lifetimeMs, signal: stop.signal, extraEnv: spec.env });
  const transport = new StreamTransport(pipeSocket(outPipe, 'read'), pipeSocket(inPipe, 'write'));
  const client = new Client({ name: 'proofpr', version: '1' }, { capabilities: {} });
  const close = async (): Promise<void> => {
    await client.close().catch(() => undefined);
    stop.abort();
    await running.catch(() => undefined);
  };
  const ended = running.then((r) => {
    throw new Error(
      `MCP server "${name}" exited (code ${r.exitCode ?? 'none'}) before it answered: ${r.output.trim().slice(-500) || 'no output'}`,
    );
  });
  ended.catch(() => undefined);
  try {
    const tools = await Promise.race([connectAndList(client, transport, o.startTimeoutMs), ended]);
    void running.then(() => transport.close());
    o.logger.info({ server: name, tools: tools.length }, 'MCP server started');
    return {
      name,
      tools,
      call: (tool, args, signal, timeout) => client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout }),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The MCP handshake, then every page of tools/list. */
async function connectAndList(client: Client, transport: StreamTransport, timeoutMs: number): Promise<Tool[]> {
  await client.connect(transport, { timeout: timeoutMs });
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor && tools.length < 10_000);
  return tools;
}
