/**
 * The replay model behind ANTHROPIC_BASE_URL: a local streaming Messages API on 127.0.0.1 (random port)
 * that answers request n with `reply(n)` (a message of text and tool_use blocks), as server-sent events.
 * No model and no network: `proofpr backtest` and bench/real run the real CLI against it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplayMessage {
  content: Array<{ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }>;
  stop_reason: string;
}

export interface ReplayServer {
  url: string;
  /** How many model requests were answered. */
  requests(): number;
  close(): Promise<void>;
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The streaming events of one whole message: start, each block (one delta), message delta, stop. */
export function replaySse(m: ReplayMessage): string {
  const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
  const message = { id: 'msg_replay', type: 'message', role: 'assistant', model: 'replay', content: [], stop_reason: null, usage };
  const out = [event('message_start', { message })];
  m.content.forEach((block, index) => {
    if (block.type === 'text') {
      out.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      out.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }));
    } else {
      out.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      out.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }));
    }
    out.push(event('content_block_stop', { index }));
  });
  out.push(event('message_delta', { delta: { stop_reason: m.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } }));
  out.push(event('message_stop', {}));
  return out.join('');
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'request-id': 'req_replay' });
  res.end(body);
}

/** Starts the replay model; `reply(n)` answers the n-th request of /v1/messages (from 1). */
export async function startReplayServer(reply: (n: number) => ReplayMessage): Promise<ReplayServer> {
  let n = 0;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0];
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') return send(res, 200, 'application/json', '{"input_tokens":10}');
      if (req.method !== 'POST' || path !== '/v1/messages') {
        const error = { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method ?? ''} ${path ?? ''}` } };
        return send(res, 404, 'application/json', JSON.stringify(error));
      }
      n += 1;
      send(res, 200, 'text/event-stream', replaySse(reply(n)));
    });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => n,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
