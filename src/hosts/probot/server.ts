/**
 * `proofpr serve`: the assembled App (create-proofpr.ts) behind an HTTP server: the webhook path
 * (signature-checked by Probot's middleware), GET /healthz, 404 for anything else.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProofpr, type Proofpr, type StartServerOptions } from './create-proofpr.js';
import type { ServerEnv } from './server-env.js';
import { logger } from '../../log.js';

const log = logger('serve');

export type { StartServerOptions } from './create-proofpr.js';

export interface RunningServer {
  port: number;
  url: string;
  env: ServerEnv;
  app: Proofpr;
  close(): Promise<void>;
}

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const app = await createProofpr(opts);
  const { env, middleware } = app;
  const server: HttpServer = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
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
  log.info({ port, webhookPath: env.webhookPath, home: env.home }, 'proofpr serve listening');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    env,
    app,
    async close() {
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await closed;
      await app.close();
    },
  };
}
