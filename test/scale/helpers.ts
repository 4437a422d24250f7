/** Scale-test plumbing: Redis presence (fails, never skips), bundled worker processes, a fake GitHub, a private redis-server. */
import { afterAll, beforeAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { bundleScript } from '../kit/host-bundle.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = process.cwd();

/** Throws (the test fails) when Redis is not reachable: these tests need a real one. */
export async function requireRedis(url = REDIS_URL): Promise<void> {
  // One attempt, no retries: a missing Redis fails the test at once instead of reconnecting forever.
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const ok = await probe
    .connect()
    .then(() => probe.ping())
    .then(
      (r) => r === 'PONG',
      () => false,
    )
    // After a refused connect the probe has already ended; disconnect() then would hold a 2 s timer open.
    .finally(() => probe.status !== 'end' && probe.disconnect());
  if (!ok) throw new Error(`Redis is not reachable at ${url} (REDIS_URL). Start one: redis-server --daemonize yes --port 6379 --save ''`);
}

/** For the calling file (or describe): one connection to the shared Redis (required), quit after its tests. */
export function useRedis(): { readonly redis: Redis } {
  let redis: Redis | undefined;
  beforeAll(async () => {
    await requireRedis();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await redis?.quit();
  });
  return {
    get redis(): Redis {
      if (!redis) throw new Error('useRedis: the connection is made before the tests');
      return redis;
    },
  };
}

export const uniquePrefix = (name: string): string => `pt-${name}-${process.pid}-${Date.now().toString(36)}`;

let bundled: string | undefined;
/** The synthetic worker bundled once (dependencies external) next to node_modules. */
export async function workerScript(): Promise<string> {
  bundled ??= await bundleScript({ file: join(root, 'test/scale/synthetic-worker.ts') }, 'proofpr-scale', 'synthetic-worker');
  return bundled;
}

export interface WorkerProc {
  child: ChildProcess;
  exited: Promise<number | null>;
}

export async function startWorker(env: Record<string, string>): Promise<WorkerProc> {
  const script = await workerScript();
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
  return { child, exited };
}

export interface Rec {
  event: string;
  worker: string;
  runId?: string;
  attempt?: number;
  t: number;
}

export function readRecords(file: string): Rec[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
}

export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fake GitHub that counts POST …/pulls. */
export async function fakeGitHub(): Promise<{ url: string; pulls: () => number; close(): Promise<void> }> {
  let pulls = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/pulls')) pulls += 1;
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"number":1}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, pulls: () => pulls, close: () => new Promise((r) => server.close(() => r())) };
}

/** A private redis-server (foreground child) on `port`, for tests that stop and restart it. */
export async function startPrivateRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await waitFor(
    'private redis',
    async () => {
      try {
        await requireRedis(`redis://127.0.0.1:${port}`);
        return true;
      } catch {
        return false;
      }
    },
    5000,
  );
  return child;
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
  await gone;
}
