/**
 * `proofpr serve` with no APP_ID: Probot's own manifest set-up (Probot's `run` in its set-up mode). GET /
 * leads to the "Register GitHub App" form built from app.yml; GitHub's redirect to /probot/setup?code=…
 * exchanges the code (POST /app-manifests/{code}/conversions) and APP_ID, PRIVATE_KEY and WEBHOOK_SECRET
 * are written into .env; then a restart starts the App.
 *
 * Probot would register the webhook at the root path of whatever host the browser used (localhost on a
 * laptop), where nothing listens. proofpr decides the webhook URL first and hands it to Probot's manifest
 * (which reads WEBHOOK_PROXY_URL from the process environment): WEBHOOK_PROXY_URL when set, else
 * PROOFPR_PUBLIC_URL + the webhook path, else a new smee.io channel (smee-client), kept in .env so that
 * `serve` forwards it after the restart. With none of them set-up stops and names the fix.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from 'probot';
import { SmeeClient } from 'smee-client';
import type { Logger } from 'pino';

export interface SmeeChannelMaker {
  createChannel(): Promise<string>;
}

export interface SetupOptions {
  /** The folder of .env (and of app.yml: Probot reads it from the process's working folder). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** proofpr's own app.yml, copied into `cwd` when that has none. */
  manifestFile: string;
  /** Where a new smee.io channel comes from (default smee-client; tests inject one). */
  smee?: SmeeChannelMaker;
  /** Progress lines for the person at the terminal. */
  say: (line: string) => void;
}

export interface SetupServer {
  port: number;
  /** The URL to open in a browser. */
  url: string;
  /** The webhook URL the manifest registers. */
  webhookUrl: string;
  stop(): Promise<void>;
}

export class SetupError extends Error {}

const DEFAULT_WEBHOOK_PATH = '/api/github/webhooks';
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

/** KEY=value lines of `.env` in `cwd`, replaced or appended (other lines kept as they are); a new file is 0600. */
export function updateDotEnv(cwd: string, values: Record<string, string>): void {
  const file = join(cwd, '.env');
  const keep = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '' && !Object.keys(values).some((k) => l.startsWith(`${k}=`)))
    : [];
  const lines = Object.entries(values).map(([k, v]) => `${k}=${v.replace(/\n/g, '\\n')}`);
  writeFileSync(file, `${[...keep, ...lines].join('\n')}\n`, { mode: 0o600 });
}

function publicWebhookUrl(raw: string, path: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SetupError(`PROOFPR_PUBLIC_URL is not a URL: set it to the https URL GitHub reaches this server at`);
  }
  if (!/^https?:$/.test(u.protocol) || LOCAL_HOST.test(u.hostname))
    throw new SetupError(
      `PROOFPR_PUBLIC_URL must be an http(s) URL GitHub can reach (not ${u.host}): set it to this server's public URL, or unset it to use a smee.io channel`,
    );
  return `${raw.replace(/\/+$/, '')}${path}`;
}

/** The webhook URL for the manifest: WEBHOOK_PROXY_URL, PROOFPR_PUBLIC_URL + path, or a new smee.io channel. */
export async function chooseWebhookUrl(opts: SetupOptions): Promise<string> {
  const proxy = opts.env.WEBHOOK_PROXY_URL?.trim();
  if (proxy) return proxy;
  const pub = opts.env.PROOFPR_PUBLIC_URL?.trim();
  if (pub) return publicWebhookUrl(pub, opts.env.WEBHOOK_PATH?.trim() || DEFAULT_WEBHOOK_PATH);
  let channel: string;
  try {
    channel = await (opts.smee ?? SmeeClient).createChannel();
  } catch (e) {
    throw new SetupError(
      `no webhook URL GitHub can reach (a new smee.io channel failed: ${(e as Error).message}): set WEBHOOK_PROXY_URL to a smee.io channel (open https://smee.io/new) or PROOFPR_PUBLIC_URL to this server's public URL, then run \`proofpr serve\` again`,
    );
  }
  updateDotEnv(opts.cwd, { WEBHOOK_PROXY_URL: channel });
  opts.say(`proofpr serve: new smee.io channel ${channel} (kept in .env as WEBHOOK_PROXY_URL: serve forwards it after the restart)`);
  return channel;
}

/**
 * app.yml in `cwd` (Probot builds the manifest from the process's working folder's app.yml, which is
 * `cwd` when run from the CLI); proofpr's own when there is none.
 */
function ensureManifest(opts: SetupOptions): void {
  const target = join(opts.cwd, 'app.yml');
  if (existsSync(target)) return;
  copyFileSync(opts.manifestFile, target);
  opts.say('proofpr serve: wrote app.yml (the App manifest: name, events, permissions) for the set-up');
}

/** Probot's updateEnv, into `cwd`'s .env; the App's credentials end the set-up with the restart hint. */
function envWriter(opts: SetupOptions): (values: NodeJS.ProcessEnv) => NodeJS.ProcessEnv {
  return (values) => {
    updateDotEnv(opts.cwd, Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined)));
    if (values.APP_ID)
      opts.say(
        `proofpr serve: the GitHub App is registered (APP_ID ${values.APP_ID}); APP_ID, PRIVATE_KEY and WEBHOOK_SECRET are in .env. ` +
          'Install the App on your repositories (the browser is there now), add ANTHROPIC_API_KEY to .env (or PROOFPR_PROVIDER), ' +
          'then stop this process and run `proofpr serve` again.',
      );
    return values;
  };
}

/** Probot's set-up server, with the webhook URL decided; resolves once it listens. */
export async function startSetup(opts: SetupOptions): Promise<SetupServer> {
  const webhookUrl = await chooseWebhookUrl(opts);
  ensureManifest(opts);
  // Probot's manifest reads WEBHOOK_PROXY_URL from the process environment when GET /probot is served.
  const saved = process.env.WEBHOOK_PROXY_URL;
  const { WEBHOOK_PROXY_URL: _proxy, APP_ID: _appId, ...probotEnv } = opts.env;
  process.env.WEBHOOK_PROXY_URL = webhookUrl;
  // Probot's set-up server (no forwarding while it runs: probotEnv has no WEBHOOK_PROXY_URL).
  const restore = (): void => {
    if (saved === undefined) delete process.env.WEBHOOK_PROXY_URL;
    else process.env.WEBHOOK_PROXY_URL = saved;
  };
  const server = await run(() => undefined, { env: probotEnv, log: opts.log, updateEnv: envWriter(opts) }).catch((e: unknown) => {
    restore();
    throw e;
  });
  // Probot's run loads the working folder's .env into the process environment: the decided URL wins.
  process.env.WEBHOOK_PROXY_URL = webhookUrl;
  const host = opts.env.HOST?.trim();
  return {
    port: server.port,
    url: `http://${host && host !== '0.0.0.0' ? host : 'localhost'}:${server.port}`,
    webhookUrl,
    async stop() {
      await server.stop();
      restore();
    },
  };
}
