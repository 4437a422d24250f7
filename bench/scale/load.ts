/** A small load generator: `total` signed POSTs over `connections` keep-alive sockets (loopback only). */
import { Agent, request } from 'node:http';
import { createHmac } from 'node:crypto';

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function load(opts: { url: string; secret: string; total: number; connections: number; body: (i: number) => string; event: string }): Promise<LoadResult> {
  const u = new URL(opts.url);
  if (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost') throw new Error('the load generator only targets loopback');
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const one = (i: number): Promise<void> =>
    new Promise((resolve) => {
      const body = opts.body(i);
      const sig = `sha256=${createHmac('sha256', opts.secret).update(body).digest('hex')}`;
      const t0 = performance.now();
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-github-event': opts.event, 'x-github-delivery': `bench-${process.pid}-${Date.now()}-${i}`, 'x-hub-signature-256': sig } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (next < opts.total) await one(next++);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: latencies.length, errors, statuses, seconds, perSecond: latencies.length / seconds, p50Ms: pct(sorted, 50), p99Ms: pct(sorted, 99), maxMs: sorted.at(-1) ?? 0 };
}
