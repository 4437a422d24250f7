/**
 * A tiny local stand-in for the streaming Messages API on 127.0.0.1 (random port), for end-to-end tests and
 * manual checks: point ANTHROPIC_BASE_URL (or baseURL) at `url`. `script(body, n)` (n counts from 1) returns
 * either a message object (streamed as SSE, or sent as JSON when the request did not ask to stream), or a
 * FakeReply to answer with an HTTP error or a raw event stream (complete, cut, or stalled).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageToSse, parseFakeMessage } from './message-to-sse.js';

export type FakeReply =
  | { httpStatus: number; error: { type: string; message: string }; headers?: Record<string, string> }
  /** Raw event-stream text; `cut` then destroys the socket (a broken stream), `hold` keeps it open and silent. */
  | { rawSse: string; cut?: boolean; hold?: boolean };

export interface FakeMessagesServer {
  url: string;
  /** Parsed JSON bodies of every POST /v1/messages, in order. */
  requests: unknown[];
  close(): Promise<void>;
}

export async function startFakeMessagesServer(script: (body: unknown, n: number) => unknown): Promise<FakeMessagesServer> {
  const requests: unknown[] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(err) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const body = await readJson(req);
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${path}` } });
      return;
    }
    requests.push(body);
    const n = requests.length;
    const reply = await script(body, n);
    const requestId = `req_fake_${n}`;
    if (isObject(reply) && 'httpStatus' in reply) {
      const r = reply as Extract<FakeReply, { httpStatus: number }>;
      sendJson(res, r.httpStatus, { type: 'error', error: r.error }, { 'request-id': requestId, ...r.headers });
      return;
    }
    if (isObject(reply) && 'rawSse' in reply) {
      const r = reply as Extract<FakeReply, { rawSse: string }>;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': requestId });
      if (r.cut) res.write(r.rawSse, () => res.destroy());
      else if (r.hold) res.write(r.rawSse);
      else res.end(r.rawSse);
      return;
    }
    const streaming = isObject(body) && body.stream === true;
    if (!streaming) {
      const m = parseFakeMessage(reply);
      sendJson(
        res,
        200,
        { id: 'msg_fake', type: 'message', role: 'assistant', model: 'claude-fake', stop_reason: 'end_turn', ...m },
        { 'request-id': requestId },
      );
      return;
    }
    const sse = messageToSse(reply);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId });
    res.end(sse);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
