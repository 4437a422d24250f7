/**
 * The Anthropic client from the environment (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: CONTRACT §2), for every
 * host that reads credentials from the environment (the Action's key is an input instead). A missing key
 * names the variable and the command that needs it.
 */
import { createAnthropicClient } from '../../model/anthropic.js';
import type { ModelClient } from '../../model/model-client.js';
import type { ModelFactory } from '../../usecases/ports.js';

export interface ModelEnv {
  anthropicApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
}

export class MissingApiKeyError extends Error {}

export function modelFromEnv(env: ModelEnv, command: string): ModelClient {
  if (!env.anthropicApiKey) {
    throw new MissingApiKeyError(
      command === 'run' || command === 'sweep'
        ? 'ANTHROPIC_API_KEY is not set: export your Anthropic API key (or point ANTHROPIC_BASE_URL at a compatible server and set any key)'
        : `ANTHROPIC_API_KEY is missing: set it in the environment of \`proofpr ${command}\``,
    );
  }
  return createAnthropicClient({ apiKey: env.anthropicApiKey, ...(env.anthropicBaseUrl ? { baseURL: env.anthropicBaseUrl } : {}) });
}

/** For queued jobs: the client is made when a job starts, so a missing key fails that job, not the server. */
export function modelFactoryFromEnv(env: ModelEnv, command: string): ModelFactory {
  return () => modelFromEnv(env, command);
}
