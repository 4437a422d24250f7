/**
 * `proofpr serve`: the assembled App (create-proofpr.ts) behind an HTTP server: the webhook path
 * (signature-checked by Probot's middleware), GET /healthz (200 only when the state store and the queue
 * answer, else 503, with the detail as JSON), GET /metrics (Prometheus), 404 for anything else. With
 * WEBHOOK_PROXY_URL, deliveries come through a smee.io channel as with Probot.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProofpr, type Proofpr, type StartServerOptions } from './create-proofpr.js';
import type { ServerEnv } from '../shared/server-env.js';
import { startWebhookProxy, type SmeeClientLike, type WebhookProxy } from './webhook-proxy.js';
import { logger } from '../../log.js';

const log = logger('serve');

export type { StartServerOptions } from './create-proofpr.js';

export interface ServerOptions extends StartServerOptions {
  /** smee-client class for WEBHOOK_PROXY_URL (default: Probot's own loading of smee-client). */
  SmeeClient?: SmeeClientLike;
}

export interface RunningServer {
  port: number;
  url: string;
  env: ServerEnv;
  app: Proofpr;
  /** The smee.io forwarding, when WEBHOOK_PROXY_URL is set. */
  proxy?: WebhookProxy;
  /** Stop listening and close the App (`drainMs`: let running runs finish that long first). */
  close(opts?: { drainMs?: number }): Promise<void>;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const app = await createProofpr(opts);
  const { env, middleware } = app;
  const server: HttpServer = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/healthz') {
      void app.health().then(
        (h) => res.writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' }).end(`${JSON.stringify(h)}\n`),
        (e: Error) =>
          res.writeHead(503, { 'content-type': 'application/json' }).end(`${JSON.stringify({ ok: false, error: e.message })}\n`),
      );
      return;
    }
    if (req.method === 'GET' && path === '/metrics') {
      void app.metrics.render().then(
        (body) => res.writeHead(200, { 'content-type': app.metrics.registry.contentType }).end(body),
        (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${e.message}\n`),
      );
      return;
    }
    void middleware(req, res, () => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? env.port, opts.host ?? '0.0.0.0', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const proxyUrl = (opts.env ?? process.env).WEBHOOK_PROXY_URL?.trim();
  const proxy = proxyUrl
    ? await startWebhookProxy({
        url: proxyUrl,
        port,
        path: env.webhookPath,
        logger: log,
        ...(opts.SmeeClient ? { SmeeClient: opts.SmeeClient } : {}),
      })
    : undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    env,
    app,
    ...(proxy ? { proxy } : {}),
    async close(closeOpts = {}) {
      proxy?.close();
      // Stop taking webhooks first; the health check answers 503 while running runs drain.
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      server.closeIdleConnections();
      await app.close(closeOpts);
      server.closeAllConnections();
      await closed;
    },
  };
}
