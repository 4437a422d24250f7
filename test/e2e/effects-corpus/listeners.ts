/**
 * The network canaries: an HTTP listener and a UDP listener (a stand-in for DNS) on 127.0.0.1 that record
 * every hit, and the fake Messages API the run talks to, which hands each well-formed request to the
 * player and records anything else as a network hit too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSocket, type Socket } from 'node:dgram';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { messageToSse } from '../../fakes/message-to-sse.js';
import { tempDir } from '../../kit/temp.js';

export interface Hit {
  via: string;
  text: string;
}

export interface Listeners {
  http: string;
  port: number;
  udp: number;
  api: string;
  /** Host Unix sockets that record every connection: in a folder of the test's temp tree, in the host's /tmp, and an abstract one. */
  socks: { tree: string; tmp: string; abstract: string };
  /** Every hit since the start, in order (HTTP, UDP, and stray requests to the fake API). */
  hits: Hit[];
  /** Set by the player: answers one model request (the parsed body, the raw text). */
  answer: (body: Record<string, unknown>, raw: string) => Promise<unknown>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  return (server.address() as AddressInfo).port;
}

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && Array.isArray((v as { messages?: unknown }).messages)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function handleApi(l: Listeners, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  const path = (req.url ?? '').split('?')[0];
  const body = req.method === 'POST' ? parse(raw) : undefined;
  if (path === '/v1/messages/count_tokens' && body) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
    return;
  }
  if (path !== '/v1/messages' || !body) {
    l.hits.push({ via: `api ${req.method} ${req.url}`, text: raw });
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"no"}}');
    return;
  }
  const reply = await l.answer(body, raw);
  const base = { id: 'msg_fx', type: 'message', role: 'assistant', model: 'claude-fake' };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...base, ...(reply as object) }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(messageToSse(reply));
}

/** A Unix socket listener at `path` (a leading NUL: abstract) that records each connection and what it sent. */
async function unixListener(l: Listeners, via: string, path: string): Promise<NetServer> {
  const server = createNetServer((conn) => {
    const hit: Hit = { via, text: '' };
    l.hits.push(hit);
    conn.on('data', (d: Buffer) => (hit.text = (hit.text + d.toString('latin1')).slice(0, 4000)));
    conn.on('error', () => undefined);
    conn.end('ok\n');
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  return server;
}

async function startSockets(l: Listeners): Promise<NetServer[]> {
  const tag = randomBytes(6).toString('hex');
  l.socks = {
    tree: join(tempDir('proofpr-effects-sock-'), 'host.sock'),
    tmp: join(tmpdir(), `fx-effects-${tag}.sock`),
    abstract: `fx-effects-${tag}`,
  };
  return Promise.all([
    unixListener(l, 'unix tree', l.socks.tree),
    unixListener(l, 'unix tmp', l.socks.tmp),
    unixListener(l, 'unix abstract', `\0${l.socks.abstract}`),
  ]);
}

export async function startListeners(): Promise<Listeners> {
  const l: Listeners = {
    http: '',
    port: 0,
    udp: 0,
    api: '',
    socks: { tree: '', tmp: '', abstract: '' },
    hits: [],
    answer: () => Promise.reject(new Error('no player attached')),
    close: () => Promise.resolve(),
  };
  const http = createServer((req, res) => {
    void readBody(req).then((raw) => {
      l.hits.push({ via: `http ${req.method} ${req.url}`, text: `${req.url} ${JSON.stringify(req.headers)} ${raw}` });
      res.writeHead(200).end('ok');
    });
  });
  const api = createServer((req, res) => {
    handleApi(l, req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(e) } }));
    });
  });
  const udp: Socket = createSocket('udp4');
  udp.on('message', (msg) => l.hits.push({ via: 'udp', text: msg.toString('latin1') }));
  await new Promise<void>((ok) => udp.bind(0, '127.0.0.1', () => ok()));
  l.port = await listen(http);
  l.http = `http://127.0.0.1:${l.port}`;
  l.api = `http://127.0.0.1:${await listen(api)}`;
  l.udp = udp.address().port;
  const socks = await startSockets(l);
  l.close = async () => {
    for (const s of socks) await new Promise<void>((ok) => s.close(() => ok()));
    rmSync(l.socks.tmp, { force: true });
    for (const s of [http, api]) {
      s.closeAllConnections();
      await new Promise<void>((ok) => s.close(() => ok()));
    }
    await new Promise<void>((ok) => udp.close(() => ok()));
  };
  return l;
}
