/**
 * Builds the configured Anthropic SDK client that the adapter and countTokens share. The SDK does the HTTP
 * retries (408/409/429/5xx/529 and connection errors, honouring retry-after / retry-after-ms) and the
 * request timeout; we only choose the numbers. Its log lines go to our pino logger (the SDK redacts keys).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Logger } from 'pino';
import { logger as moduleLogger } from '../log.js';

export interface AnthropicClientOptions {
  /** The API key. Required; never logged. */
  apiKey: string;
  /** Endpoint; defaults to ANTHROPIC_BASE_URL (read by the SDK), then the public API. */
  baseURL?: string;
  /** SDK retries per request (default 4). */
  maxRetries?: number;
  /** Time to wait for the response headers of one attempt, in ms (default 10 minutes). */
  timeoutMs?: number;
  /** A started stream that sends no event (not even a ping) for this long is broken, in ms (default 5 minutes). */
  streamIdleMs?: number;
  logger?: Logger;
}

export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;

export function createSdkClient(opts: AnthropicClientOptions): Anthropic {
  if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
    throw new Error('apiKey is empty: set ANTHROPIC_API_KEY (or pass apiKey) to call the Anthropic API');
  }
  const log = opts.logger ?? moduleLogger('model');
  const baseURL = opts.baseURL ?? (process.env.ANTHROPIC_BASE_URL || undefined);
  return new Anthropic({
    apiKey: opts.apiKey,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger: {
      error: (msg: string, ...rest: unknown[]) => log.error({ sdk: rest }, msg),
      warn: (msg: string, ...rest: unknown[]) => log.warn({ sdk: rest }, msg),
      info: (msg: string, ...rest: unknown[]) => log.info({ sdk: rest }, msg),
      debug: (msg: string, ...rest: unknown[]) => log.debug({ sdk: rest }, msg),
    },
  });
}
