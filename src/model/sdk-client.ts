/**
 * Builds the configured SDK client that the adapter and countTokens share: the Anthropic API's, or the
 * Bedrock / Vertex client of the same SDK family (provider.ts). The SDK does the HTTP
 * retries (408/409/429/5xx/529 and connection errors, honouring retry-after / retry-after-ms) and the
 * request timeout; we only choose the numbers. Its log lines go to our pino logger (the SDK redacts keys).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Logger } from 'pino';
import { logger as moduleLogger } from '../log.js';
import { cloudSdkInstalled, createCloudSdk, missingSdkError, providerSettings, type ModelProvider, type SdkMessages } from './provider.js';

export interface AnthropicClientOptions {
  /** anthropic (default), bedrock or vertex: see provider.ts for where each takes its credentials. */
  provider?: ModelProvider;
  /** The API key; required for anthropic, unused by bedrock and vertex; never logged. */
  apiKey?: string;
  /** Endpoint; defaults to the provider's own variable (ANTHROPIC_BASE_URL, ANTHROPIC_BEDROCK_BASE_URL, ANTHROPIC_VERTEX_BASE_URL), then the public one. */
  baseURL?: string;
  /** Environment for the provider's region and project (default process.env; the cloud SDKs read their credentials themselves). */
  env?: NodeJS.ProcessEnv;
  /** SDK retries per request (default 4). */
  maxRetries?: number;
  /** Time to wait for the response headers of one attempt, in ms (default 10 minutes). */
  timeoutMs?: number;
  /** A started stream that sends no event (not even a ping) for this long is broken, in ms (default 5 minutes). */
  streamIdleMs?: number;
  logger?: Logger;
  /** Whether a cloud provider's SDK is installed (default: resolved from proofpr's own location; tests inject). */
  cloudSdkInstalled?: (provider: 'bedrock' | 'vertex') => boolean;
}

export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;

function sdkLogger(log: Logger) {
  return {
    error: (msg: string, ...rest: unknown[]) => log.error({ sdk: rest }, msg),
    warn: (msg: string, ...rest: unknown[]) => log.warn({ sdk: rest }, msg),
    info: (msg: string, ...rest: unknown[]) => log.info({ sdk: rest }, msg),
    debug: (msg: string, ...rest: unknown[]) => log.debug({ sdk: rest }, msg),
  };
}

/** The Anthropic API's client (count_tokens needs it: Bedrock has no such endpoint). */
export function createSdkClient(opts: AnthropicClientOptions): Anthropic {
  if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
    throw new Error('apiKey is empty: set ANTHROPIC_API_KEY (or pass apiKey) to call the Anthropic API');
  }
  const log = opts.logger ?? moduleLogger('model');
  const baseURL = opts.baseURL ?? ((opts.env ?? process.env).ANTHROPIC_BASE_URL || undefined);
  return new Anthropic({
    apiKey: opts.apiKey,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger: sdkLogger(log),
  });
}

/**
 * The messages client of the configured provider. Settings are checked now (a missing key or region is an
 * error at start, naming the variable); the Bedrock and Vertex SDKs are loaded at the first request.
 */
export function createMessagesClient(opts: AnthropicClientOptions): () => Promise<SdkMessages> {
  const provider = opts.provider ?? 'anthropic';
  if (provider === 'anthropic') {
    const sdk = createSdkClient(opts);
    return () => Promise.resolve(sdk);
  }
  const settings = { ...providerSettings(provider, opts.env ?? process.env), ...(opts.baseURL ? { baseURL: opts.baseURL } : {}) };
  // An optional peer dependency: missing, the run stops at start with the install line, not at the first request.
  if (!(opts.cloudSdkInstalled ?? cloudSdkInstalled)(provider)) throw missingSdkError(provider);
  const common = {
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger: sdkLogger(opts.logger ?? moduleLogger('model')),
  };
  let made: Promise<SdkMessages> | undefined;
  return () => (made ??= createCloudSdk(settings, common));
}
