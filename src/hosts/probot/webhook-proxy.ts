/**
 * WEBHOOK_PROXY_URL for local development, as Probot does it: a smee.io channel forwarded to this server's
 * webhook path with smee-client (Probot's own helper: the local `smee-client` package when installed,
 * else fetched when started through npx; without it a warning names the fix). Tests inject a client.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';

export interface WebhookProxy {
  close(): void;
}

export interface SmeeClientLike {
  new (opts: { source: string; target: string; logger: Logger }): { start(): Promise<WebhookProxy> | WebhookProxy };
}

export interface WebhookProxyOptions {
  url: string;
  port: number;
  path: string;
  logger: Logger;
  SmeeClient?: SmeeClientLike;
}

type CreateWebhookProxy = (opts: {
  url: string;
  host: string;
  port: number;
  path: string;
  logger: Logger;
}) => Promise<WebhookProxy | undefined>;

/** Probot's createWebhookProxy (lib/helpers/webhook-proxy.js; not in the package's export map). */
async function probotHelper(): Promise<CreateWebhookProxy> {
  const lib = dirname(createRequire(import.meta.url).resolve('probot'));
  const mod = (await import(pathToFileURL(join(lib, 'helpers', 'webhook-proxy.js')).href)) as { createWebhookProxy: CreateWebhookProxy };
  return mod.createWebhookProxy;
}

export async function startWebhookProxy(opts: WebhookProxyOptions): Promise<WebhookProxy | undefined> {
  const target = `http://127.0.0.1:${opts.port}${opts.path}`;
  const proxy = opts.SmeeClient
    ? await new opts.SmeeClient({ source: opts.url, target, logger: opts.logger }).start()
    : await (
        await probotHelper()
      )({ url: opts.url, host: '127.0.0.1', port: opts.port, path: opts.path, logger: opts.logger });
  if (proxy) opts.logger.info({ source: opts.url, target }, 'forwarding webhooks from WEBHOOK_PROXY_URL');
  return proxy;
}
