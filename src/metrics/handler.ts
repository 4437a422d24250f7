/**
 * GET /metrics (Prometheus text) and GET /healthz for the webhook server and each worker. Returns false for
 * other paths so the caller can route them elsewhere; `serveMetrics` is the stand-alone listener of a worker.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface HealthCheck {
  /** Resolves true when healthy (e.g. Redis answers); false or a rejection gives 503. */
  (): Promise<boolean>;
}

export function metricsHandler(
  metrics: Metrics,
  health: HealthCheck = async () => true,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/healthz')) return false;
    if (path === '/healthz') {
      void health()
        .catch(() => false)
        .then((ok) => res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : 'unhealthy\n'));
      return true;
    }
    void metrics.render().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${e.message}\n`),
    );
    return true;
  };
}

/** Listen on `port` (0 = any) with /metrics and /healthz only; 404 for anything else. */
export async function serveMetrics(
  metrics: Metrics,
  port: number,
  health?: HealthCheck,
  host = '0.0.0.0',
): Promise<{ server: Server; port: number }> {
  const handle = metricsHandler(metrics, health);
  const server = createServer((req, res) => {
    if (!handle(req, res)) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
