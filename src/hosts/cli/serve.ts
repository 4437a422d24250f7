/**
 * `proofpr serve`: load `.env` from the current folder (variables already set win, as with Probot), start
 * the App server (webhooks + queue + workers, WEBHOOK_PROXY_URL forwarding) and run until SIGINT/SIGTERM,
 * which drains: no new webhooks or jobs, running runs get PROOFPR_DRAIN_GRACE_MS (default 30 s) to finish,
 * then are aborted with their WIP kept. Resolves to the exit code: 0 after a clean shutdown, 2 for a
 * configuration error (a missing variable, ANTHROPIC_API_KEY included, or a missing SQLite module).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { startServer, type RunningServer, type ServerOptions } from '../probot/server.js';
import { ServerEnvError } from '../shared/server-env.js';
import { SqliteUnavailableError } from '../../jobs/db.js';
import { sandboxStatus } from '../../workspace/sandbox-status.js';

export const DEFAULT_DRAIN_GRACE_MS = 30_000;

/** Variables from `<cwd>/.env` that are not already set (as Probot's dotenv does: set ones win). */
export function loadDotEnv(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return false;
  for (const [k, v] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) if (env[k] === undefined) env[k] = v;
  return true;
}

export interface ServeCommandOptions extends ServerOptions {
  /** Where SIGINT/SIGTERM come from (default: the process). */
  signals?: Pick<EventEmitter, 'on' | 'off'>;
  /** Called once the server listens (tests). */
  onListening?: (server: RunningServer) => void;
}

export async function serveCommand(opts: ServeCommandOptions = {}): Promise<number> {
  const signals = opts.signals ?? process;
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  let loaded = false;
  try {
    loaded = loadDotEnv(cwd, env);
  } catch (e) {
    process.stderr.write(`proofpr serve: .env: ${(e as Error).message}\n`);
    return 2;
  }
  const grace = env.PROOFPR_DRAIN_GRACE_MS;
  if (grace !== undefined && grace !== '' && !/^\d+$/.test(grace)) {
    process.stderr.write('proofpr serve: PROOFPR_DRAIN_GRACE_MS must be a number of milliseconds\n');
    return 2;
  }
  const drainMs = grace ? Number(grace) : DEFAULT_DRAIN_GRACE_MS;
  let server;
  try {
    server = await startServer({ ...opts, env, cwd });
  } catch (e) {
    if (e instanceof ServerEnvError || e instanceof SqliteUnavailableError) {
      process.stderr.write(`proofpr serve: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  process.stderr.write(
    `proofpr serve: listening on port ${server.port} (webhooks at ${server.env.webhookPath}${server.proxy ? ` via ${env.WEBHOOK_PROXY_URL}` : ''}, /healthz, /metrics; state in ${server.env.home}${loaded ? '; .env loaded' : ''})\n`,
  );
  // Said at the start: every run's commands go through bubblewrap, or (sandbox: auto) through nothing.
  const box = await sandboxStatus('auto');
  process.stderr.write(
    box.sandbox === 'bwrap'
      ? 'proofpr serve: sandbox: bwrap\n'
      : `proofpr serve: WARNING sandbox: none for repositories with sandbox: auto: ${box.reason ?? ''}\n`,
  );
  opts.onListening?.(server);
  const running = server;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      process.stderr.write(`proofpr serve: draining (no new webhooks or jobs; running runs get ${Math.round(drainMs / 1000)} s)\n`);
      void running.close({ drainMs }).then(resolve, resolve);
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
  return 0;
}
