/**
 * bench/scale: (1) webhook ingestion, signed `issue_comment` deliveries at 50 concurrent connections against
 * (a) a bare Probot app doing nothing and (b) a Probot app whose handler parses the event with proofpr's
 * parseEvent and enqueues it with BullmqQueue (the real intake also calls GitHub for the config and the
 * commenter's permission, which a loopback bench cannot time honestly). Targets: ack p99 < 50 ms and
 * throughput ≥ 0.8× bare. (2) job throughput, synthetic 100 ms jobs: 2 worker processes vs 1 (target ≥ 1.8×).
 * Writes bench/results/scale.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, createNodeMiddleware, type ApplicationFunction } from 'probot';
import { createBullmqQueue } from '../../src/jobs/bullmq-queue.js';
import { parseEvent } from '../../src/github/event.js';
import { silentLogger } from '../../src/log.js';
import type { LoadResult } from './load.js';

const root = process.argv[2] ?? process.cwd();
const workerScript = process.argv[3] ?? '';
const loadScript = process.argv[4] ?? '';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOTAL = Number(process.env.REQUESTS ?? 4000);
const CONNECTIONS = 50;
const JOBS = Number(process.env.JOBS ?? 60);
const secret = 'bench-secret';
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const payloadFile = join(root, 'test/fixtures/payloads/issue_comment.created.json');

/** Run the load generator in its own process against `url`. */
function load(url: string, total: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [loadScript], { env: { ...process.env, TARGET_URL: url, SECRET: secret, TOTAL: String(total), CONNECTIONS: String(CONNECTIONS), PAYLOAD_FILE: payloadFile }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited ${code}`))));
  });
}

async function serve(app: ApplicationFunction): Promise<{ url: string; close(): Promise<void> }> {
  const probot = new Probot({ appId: 1, privateKey: pem, secret, log: silentLogger });
  const mw = await createNodeMiddleware(app, { probot, webhooksPath: '/api/github/webhooks' });
  const server = createServer((req, res) => void mw(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/api/github/webhooks`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

async function ingestion(): Promise<{ bare: LoadResult; enqueue: LoadResult; ratio: number; enqueued: number }> {
  const bare = await serve((app) => app.on('issue_comment.created', async () => undefined));
  await load(bare.url, 500); // warm-up
  const bareRes = await load(bare.url, TOTAL);
  await bare.close();

  const prefix = `bench-ingest-${process.pid}`;
  const queue = createBullmqQueue<{ repo: string; issue: number }>({ redisUrl: REDIS_URL, name: 'runs', prefix });
  const withQueue = await serve((app) =>
    app.on('issue_comment.created', async (ctx) => {
      const facts = parseEvent(ctx.name, ctx.id, ctx.payload);
      if (!facts) throw new Error('bench payload did not parse');
      const repo = `${facts.owner}/${facts.repo}`;
      await queue.enqueue({ runId: `r-${ctx.id}`, data: { repo, issue: facts.number } }, { dedupeKey: ctx.id });
    }),
  );
  await load(withQueue.url, 500);
  const enqRes = await load(withQueue.url, TOTAL);
  const counts = await queue.counts();
  await withQueue.close();
  await queue.close();
  return { bare: bareRes, enqueue: enqRes, ratio: enqRes.perSecond / bareRes.perSecond, enqueued: counts.waiting };
}

async function jobThroughput(workers: number): Promise<{ workers: number; jobs: number; seconds: number; jobsPerSecond: number }> {
  const prefix = `bench-jobs-${workers}-${process.pid}-${Date.now()}`;
  const file = join(mkdtempSync(join(tmpdir(), 'proofpr-bench-')), 'records.jsonl');
  const procs: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) {
    const child = spawn(process.execPath, [workerScript], { env: { ...process.env, REDIS_URL, PREFIX: prefix, RECORD_FILE: file, JOB_MS: '100', CONCURRENCY: '1', WORKER_NAME: `w${i}` }, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((r) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && r()));
    procs.push(child);
  }
  const queue = createBullmqQueue<{ repo: string; issue: number }>({ redisUrl: REDIS_URL, name: 'runs', prefix });
  const done = (): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"done"')).length : 0);
  const t0 = performance.now();
  for (let i = 0; i < JOBS; i++) await queue.enqueue({ runId: `j${i}`, data: { repo: `o/r${i}`, issue: i } }, { dedupeKey: `j${i}` });
  while (done() < JOBS) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - t0) / 1000;
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
  await queue.close();
  return { workers, jobs: JOBS, seconds, jobsPerSecond: JOBS / seconds };
}

const ing = await ingestion();
const one = await jobThroughput(1);
const two = await jobThroughput(2);
const speedup = two.jobsPerSecond / one.jobsPerSecond;
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, loadavg: loadavg() },
  ingestion: { connections: CONNECTIONS, requests: TOTAL, handler: 'parseEvent + BullmqQueue.enqueue (no GitHub calls)', bare: ing.bare, enqueue: ing.enqueue, throughputRatio: ing.ratio, enqueued: ing.enqueued, targets: { p99Ms: 50, ratio: 0.8 }, pass: ing.enqueue.p99Ms < 50 && ing.ratio >= 0.8 },
  jobs: { jobMs: 100, one, two, speedup, target: 1.8, pass: speedup >= 1.8 },
};
const f = (n: number): string => n.toFixed(1);
console.log('webhook ingestion (50 connections, %d signed deliveries)', TOTAL);
console.log('  %s  %s req/s  p50 %s ms  p99 %s ms  max %s ms  statuses %j', 'bare probot     ', f(ing.bare.perSecond), f(ing.bare.p50Ms), f(ing.bare.p99Ms), f(ing.bare.maxMs), ing.bare.statuses);
console.log('  %s  %s req/s  p50 %s ms  p99 %s ms  max %s ms  statuses %j', 'parse + enqueue ', f(ing.enqueue.perSecond), f(ing.enqueue.p50Ms), f(ing.enqueue.p99Ms), f(ing.enqueue.maxMs), ing.enqueue.statuses);
console.log('  throughput ratio %s (target ≥ 0.8), p99 target < 50 ms: %s', ing.ratio.toFixed(2), result.ingestion.pass ? 'PASS' : 'FAIL');
console.log('job throughput (%d jobs of 100 ms, 1 job at a time per worker process)', JOBS);
console.log('  1 worker : %s jobs/s   2 workers: %s jobs/s   speedup %s (target ≥ 1.8): %s', f(one.jobsPerSecond), f(two.jobsPerSecond), speedup.toFixed(2), result.jobs.pass ? 'PASS' : 'FAIL');
writeFileSync(join(root, 'bench/results/scale.json'), JSON.stringify(result, null, 2) + '\n');
process.exit(0);
