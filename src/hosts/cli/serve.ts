/**
 * `proofpr serve`: load `.env` from the current folder (variables already set win, as with Probot), start
 * the App server (webhooks + queue + workers, WEBHOOK_PROXY_URL forwarding) and run until SIGINT/SIGTERM,
 * which drains: no new webhooks or jobs, running runs get PROOFPR_DRAIN_GRACE_MS (default 30 s) to finish,
 * then are aborted with their WIP kept. Resolves to the exit code: 0 after a clean shutdown, 2 for a
 * configuration error (every missing variable named at once, ANTHROPIC_API_KEY included, or a missing
 * SQLite module). Without APP_ID (and NODE_ENV not production) it runs Probot's manifest set-up instead
 * (../probot/setup.ts): register the App, write .env, restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { startServer, type RunningServer, type ServerOptions } from '../probot/server.js';
import { ServerEnvError } from '../shared/server-env.js';
import { SqliteUnavailableError } from '../../jobs/db.js';
import { sandboxStatus } from '../../workspace/sandbox-status.js';
import { SetupError, startSetup, type SetupServer, type SmeeChannelMaker } from '../probot/setup.js';
import { packageRoot } from './package-root.js';
import { logger } from '../../log.js';

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
  /** Called once the set-up server (no APP_ID) listens (tests). */
  onSetup?: (server: SetupServer) => void;
  /** Where the set-up's new smee.io channel comes from (default smee-client). */
  smee?: SmeeChannelMaker;
}

type Signals = Pick<EventEmitter, 'on' | 'off'>;

/** Resolves at the first SIGINT or SIGTERM. */
function nextSignal(signals: Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      resolve();
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
}

/** No APP_ID: Probot's manifest set-up until a signal; 2 when no webhook URL can be had or the port is taken. */
async function setupMode(opts: ServeCommandOptions, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  let setup: SetupServer;
  try {
    setup = await startSetup({
      cwd,
      env,
      log: logger('setup'),
      manifestFile: join(packageRoot(), 'app.yml'),
      say,
      ...(opts.smee ? { smee: opts.smee } : {}),
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!(e instanceof SetupError) && err.code !== 'EADDRINUSE') throw e;
    say(`proofpr serve: ${err.message}`);
    return 2;
  }
  say(
    `proofpr serve: no APP_ID, so this is the App set-up (Probot's manifest flow): open ${setup.url} and press "Register GitHub App"; its webhooks will go to ${setup.webhookUrl}`,
  );
  opts.onSetup?.(setup);
  await nextSignal(opts.signals ?? process);
  await setup.stop();
  return 0;
}

export async function serveCommand(opts: ServeCommandOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  let loaded = false;
  try {
    loaded = loadDotEnv(cwd, env);
  } catch (e) {
    process.stderr.write(`proofpr serve: .env: ${(e as Error).message}\n`);
    return 2;
  }
  if (!env.APP_ID?.trim() && env.NODE_ENV !== 'production') return setupMode(opts, env, cwd);
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
  await nextSignal(opts.signals ?? process);
  process.stderr.write(`proofpr serve: draining (no new webhooks or jobs; running runs get ${Math.round(drainMs / 1000)} s)\n`);
  await server.close({ drainMs }).catch(() => undefined);
  return 0;
}
