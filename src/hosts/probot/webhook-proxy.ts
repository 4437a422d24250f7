/**
 * WEBHOOK_PROXY_URL for local development, as Probot does it: a smee.io channel forwarded to this server's
 * webhook path with the `smee-client` package (a dependency of proofpr). A channel that cannot be reached
 * is a warning naming the fix: the server still answers on its own URL. Tests inject a client.
 */
import { SmeeClient } from 'smee-client';
import type { Logger } from 'pino';

export interface WebhookProxy {
  close(): void;
}

export interface SmeeClientLike {
  new (opts: { source: string; target: string; logger: Pick<Logger, 'info' | 'error'> }): {
    start(): Promise<WebhookProxy> | WebhookProxy;
  };
}

export interface WebhookProxyOptions {
  url: string;
  port: number;
  path: string;
  logger: Logger;
  SmeeClient?: SmeeClientLike;
}

export async function startWebhookProxy(opts: WebhookProxyOptions): Promise<WebhookProxy | undefined> {
  const target = `http://127.0.0.1:${opts.port}${opts.path}`;
  const Client: SmeeClientLike = opts.SmeeClient ?? SmeeClient;
  const logger = { info: opts.logger.info.bind(opts.logger), error: opts.logger.error.bind(opts.logger) } as Pick<Logger, 'info' | 'error'>;
  try {
    const proxy = await new Client({ source: opts.url, target, logger }).start();
    opts.logger.info({ source: opts.url, target }, 'forwarding webhooks from WEBHOOK_PROXY_URL');
    return proxy;
  } catch (e) {
    opts.logger.warn(
      { source: opts.url, err: (e as Error).message },
      'WEBHOOK_PROXY_URL: cannot connect to the channel, so no webhook arrives through it: check the URL (https://smee.io/…) and the network, then restart',
    );
    return undefined;
  }
}
