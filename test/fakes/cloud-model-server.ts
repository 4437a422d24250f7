/**
 * Local stand-ins for the Claude endpoints of Amazon Bedrock and Google Vertex AI, shaped as the Anthropic
 * SDK's own Bedrock and Vertex clients call them:
 * - Bedrock: POST /model/{model}/invoke-with-response-stream, SigV4-signed (Authorization
 *   `AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/bedrock/aws4_request …`), answered with AWS
 *   event-stream binary frames (`:event-type: chunk`, body `{"bytes": base64(<one Messages stream event>)}`).
 * - Vertex: POST /projects/{project}/locations/{region}/publishers/anthropic/models/{model}:streamRawPredict
 *   with `Authorization: Bearer <token>`, answered with the same server-sent events as the Anthropic API. The
 *   token comes from POST /sts (a workload identity federation token exchange, as google-github-actions/auth
 *   sets up for OIDC): the test's credential file names this server as its `token_url`.
 * `script(body, n)` returns the message to stream (see message-to-sse.ts). Every request is recorded with
 * its path and headers so a test can check the wire shape.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageToSse } from './message-to-sse.js';

export interface CloudRequest {
  path: string;
  authorization: string;
  body: Record<string, unknown>;
}

export interface FakeCloudServer {
  url: string;
  /** Model requests (not token exchanges), in order. */
  requests: CloudRequest[];
  /** Token exchanges seen at /sts (Vertex). */
  tokenExchanges: number;
  close(): Promise<void>;
}

export const FAKE_ACCESS_TOKEN = 'ya29.fake-federated-access-token';

const codec = new EventStreamCodec(
  (b: Uint8Array) => new TextDecoder().decode(b),
  (s: string) => new TextEncoder().encode(s),
);

/** One SSE event ("event: x\ndata: {…}") as a Bedrock `chunk` frame. */
function chunkFrame(eventJson: string): Uint8Array {
  const body = JSON.stringify({ bytes: Buffer.from(eventJson, 'utf8').toString('base64') });
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: new TextEncoder().encode(body),
  });
}

function sseData(sse: string): string[] {
  return sse
    .split('\n\n')
    .map((ev) =>
      ev
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6),
    )
    .filter((d): d is string => d !== undefined);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const BEDROCK = /^\/model\/([^/]+)\/invoke-with-response-stream$/;
const VERTEX = /^\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/;

export async function startFakeCloudServer(
  kind: 'bedrock' | 'vertex',
  script: (body: unknown, n: number) => unknown,
): Promise<FakeCloudServer> {
  const state: FakeCloudServer = { url: '', requests: [], tokenExchanges: 0, close: async () => {} };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    const text = await readBody(req);
    if (kind === 'vertex' && path === '/sts') {
      state.tokenExchanges += 1;
      json(res, 200, {
        access_token: FAKE_ACCESS_TOKEN,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3600,
      });
      return;
    }
    const route = kind === 'bedrock' ? BEDROCK.exec(path) : VERTEX.exec(path);
    if (req.method !== 'POST' || !route) {
      json(res, 404, { message: `no route ${req.method} ${path}` });
      return;
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    state.requests.push({ path, authorization: String(req.headers.authorization ?? ''), body });
    const sse = messageToSse(await script(body, state.requests.length));
    if (kind === 'vertex') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': `req_vertex_${state.requests.length}` });
      res.end(sse);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': `bedrock-${state.requests.length}` });
    for (const data of sseData(sse)) res.write(chunkFrame(data));
    res.end();
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { message: String(err) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return state;
}
