/**
 * The sandbox names what it mounts (src/workspace/sandbox-system.ts): a Unix socket of the host (Docker's,
 * D-Bus, X11, one in a home or under the host's /tmp) cannot be reached from a sandboxed command, whatever
 * its path, because no host folder that could hold it is mounted. Each socket answers from outside the
 * sandbox (the check is not vacuous) and is refused inside, from an agent's Bash command, from a
 * harness test run (its own fresh home), from a repository's command hook and from an MCP server's tool
 * (the server started as a run starts it, through the same exec).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runCommandHook } from '../../src/agent/hooks/command-hook.js';
import { silentLogger } from '../../src/log.js';
import { startMcpServer } from '../../src/tools/mcp/start-server.js';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { tempDir } from '../kit/temp.js';

const servers: Server[] = [];
const made: string[] = [];
let bwrap: string | null = null;
let root = '';
let runTmp = '';
let h: ExecHandle | undefined;

/** A listening Unix socket at `path` (its folder made when missing); undefined where the host does not let us make one. */
async function listenAt(path: string): Promise<string | undefined> {
  try {
    mkdirSync(join(path, '..'), { recursive: true });
  } catch {
    return undefined;
  }
  const srv = createServer((c) => c.end('hello from the host\n'));
  const ok = await new Promise<boolean>((res) => {
    srv.once('error', () => res(false));
    srv.listen(path, () => res(true));
  });
  if (!ok) return undefined;
  servers.push(srv);
  made.push(path);
  return path;
}

const CONNECT = (p: string): string =>
  `node -e 'const s=require("net").connect(${JSON.stringify(p)});s.on("data",d=>{process.stdout.write("CONNECTED "+d);process.exit(0)});s.on("error",e=>{console.log("REFUSED "+e.code);process.exit(0)})'`;

let sockets: string[] = [];

/** A stdio MCP server (newline-delimited JSON-RPC) with one tool: connect to the Unix socket at `path`, say what happened. */
const MCP_CONNECT_SERVER = `import { connect } from 'node:net';
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const tools = [{ name: 'connect', description: 'connects to a Unix socket', inputSchema: { type: 'object' } }];
function tryConnect(path) {
  return new Promise((res) => {
    const s = connect(path);
    s.on('data', (d) => { res('CONNECTED ' + d); s.destroy(); });
    s.on('error', (e) => res('REFUSED ' + e.code));
  });
}
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  if (req.id === undefined) return;
  if (req.method === 'initialize')
    return send({ id: req.id, result: { protocolVersion: req.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'sockets', version: '1' } } });
  if (req.method === 'tools/list') return send({ id: req.id, result: { tools } });
  if (req.method === 'tools/call') {
    const text = await tryConnect(req.params.arguments.path);
    return send({ id: req.id, result: { content: [{ type: 'text', text }] } });
  }
  send({ id: req.id, error: { code: -32601, message: 'unknown method' } });
});
`;

beforeAll(async () => {
  bwrap = await detectBwrap();
  if (!bwrap) process.stdout.write('host sockets: skipped, bubblewrap cannot create namespaces on this machine\n');
  root = tempDir('proofpr-sockets-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  writeFileSync(join(root, 'README.md'), '# fixture\n');
  const tag = `proofpr-test-${process.pid}-${Date.now()}`;
  const candidates = [
    join(tempDir('proofpr-sockets-host-'), 'chosen.sock'), // a path the test chooses under the host's /tmp
    `/tmp/.X11-unix/${tag}`,
    `/run/${tag}.sock`,
    `/var/run/${tag}-docker.sock`,
    `/var/lib/${tag}.sock`,
    join(homedir(), `.${tag}.sock`),
  ];
  sockets = (await Promise.all(candidates.map(listenAt))).filter((p): p is string => p !== undefined);
  runTmp = join(tempDir('proofpr-sockets-run-'), 'run');
  h = await createExec({ root, runTmp, sandbox: 'auto', protect: {} });
});

afterAll(async () => {
  await h?.dispose();
  for (const s of servers) s.close();
  for (const p of made) rmSync(p, { force: true });
});

describe('sandbox - no host Unix socket answers inside', () => {
  it('sockets - the test made sockets in the host places that hold them, and each answers outside the sandbox', async () => {
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    // async: the servers live in this process, so a blocking call could not let them answer
    for (const p of sockets)
      expect((await promisify(execFile)('bash', ['-c', CONNECT(p)], { encoding: 'utf8' })).stdout).toContain('CONNECTED hello');
  });

  it.each([
    ['an agent Bash command', {}],
    ['a harness test run (fresh home)', { home: 'fresh' as const }],
  ])('sockets - %s connects to none of them', async (_what, extra) => {
    if (!bwrap || !h) return;
    for (const p of sockets) {
      const r = await h.exec({ command: CONNECT(p), cwd: root, timeoutMs: 20_000, ...extra });
      expect({ socket: p, out: r.stdout.trim() }).toEqual({
        socket: p,
        out: expect.stringMatching(/^REFUSED (ENOENT|ECONNREFUSED|EACCES)$/),
      });
    }
  });

  it('sockets - a repository command hook (PreToolUse, run through the same exec) connects to none of them', async () => {
    if (!bwrap || !h) return;
    const exec = h.exec.bind(h);
    for (const p of sockets) {
      const hook = { command: `${CONNECT(p)} >&2; exit 2`, timeout_sec: 20 };
      const outcome = await runCommandHook(
        hook,
        'PreToolUse',
        { hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Bash' },
        { exec, root },
      );
      expect({ socket: p, outcome }).toEqual({
        socket: p,
        outcome: expect.objectContaining({ kind: 'block', reason: expect.stringMatching(/^REFUSED (ENOENT|ECONNREFUSED|EACCES)$/) }),
      });
    }
  });

  it('sockets - an MCP server (started through the same exec, as a run starts it) connects to none of them from its tool', async () => {
    if (!bwrap || !h) return;
    // The server lives in the worktree: the sandbox shows the worktree, not the host's /tmp around it.
    writeFileSync(join(root, 'mcp-connect.mjs'), MCP_CONNECT_SERVER);
    const exec = h.exec.bind(h);
    const conn = await startMcpServer(
      'sockets',
      { command: 'node', args: ['mcp-connect.mjs'], env: {} },
      { exec, root, pipeDir: join(runTmp, 'tmp'), startTimeoutMs: 20_000, lifetimeMs: 60_000, logger: silentLogger },
    );
    // The control: the same server without the sandbox reaches the first socket (the tool can connect).
    const bare = await createExec({ root, runTmp: join(tempDir('proofpr-sockets-bare-'), 'run'), sandbox: 'off', protect: {} });
    const open = await startMcpServer(
      'bare',
      { command: 'node', args: ['mcp-connect.mjs'], env: {} },
      {
        exec: bare.exec.bind(bare),
        root,
        pipeDir: join(tempDir('proofpr-sockets-bare-pipes-'), 'tmp'),
        startTimeoutMs: 20_000,
        lifetimeMs: 60_000,
        logger: silentLogger,
      },
    );
    try {
      const r = (await open.call('connect', { path: sockets[0]! }, new AbortController().signal, 20_000)) as {
        content: Array<{ text: string }>;
      };
      expect(r.content[0]?.text).toContain('CONNECTED hello');
    } finally {
      await open.close();
      await bare.dispose();
    }
    try {
      expect(conn.tools.map((t) => t.name)).toEqual(['connect']);
      for (const p of sockets) {
        const r = (await conn.call('connect', { path: p }, new AbortController().signal, 20_000)) as { content: Array<{ text: string }> };
        expect({ socket: p, out: r.content[0]?.text }).toEqual({
          socket: p,
          out: expect.stringMatching(/^REFUSED (ENOENT|ECONNREFUSED|EACCES)$/),
        });
      }
    } finally {
      await conn.close();
    }
  });

  it('sockets - the same sandbox still runs the toolchain (node, git, python3) and reads name resolution and TLS roots', async () => {
    if (!bwrap || !h) return;
    const r = await h.exec({
      command: 'node -v && git --version && python3 -c "print(1)" && test -r /etc/passwd && ls /etc/ssl >/dev/null && echo OK',
      cwd: root,
      timeoutMs: 20_000,
    });
    expect(r.stdout).toContain('OK');
  });
});
