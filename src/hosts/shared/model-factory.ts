/**
 * The model client from the environment (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: CONTRACT §2; or Bedrock /
 * Vertex through PROOFPR_PROVIDER or the config's `provider:`, credentials from their SDKs' own environment),
 * for every host that reads credentials from the environment (the Action's key is an input instead). A
 * missing key or region names the variable and the command that needs it.
 */
import { createAnthropicClient } from '../../model/anthropic.js';
import type { ModelClient } from '../../model/model-client.js';
import { ProviderConfigError, resolveProvider, type ModelProvider } from '../../model/provider.js';
import type { ModelFactory } from '../../usecases/ports.js';

export interface ModelEnv {
  anthropicApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  /** The config's `provider:` when the host knows it; PROOFPR_PROVIDER in `env` wins. */
  provider?: ModelProvider | undefined;
  /** Where PROOFPR_PROVIDER and the cloud region variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export class MissingApiKeyError extends Error {}

export function modelFromEnv(env: ModelEnv, command: string): ModelClient {
  const vars = env.env ?? process.env;
  let provider: ModelProvider;
  try {
    provider = resolveProvider(env.provider, vars);
    if (provider !== 'anthropic') return createAnthropicClient({ provider, env: vars });
  } catch (e) {
    if (e instanceof ProviderConfigError) throw new MissingApiKeyError(`${e.message} (for \`proofpr ${command}\`)`);
    throw e;
  }
  if (!env.anthropicApiKey) {
    throw new MissingApiKeyError(
      command === 'run' || command === 'sweep'
        ? 'ANTHROPIC_API_KEY is not set: export your Anthropic API key (or point ANTHROPIC_BASE_URL at a compatible server and set any key, or use Bedrock or Vertex: PROOFPR_PROVIDER=bedrock|vertex)'
        : `ANTHROPIC_API_KEY is missing: set it in the environment of \`proofpr ${command}\` (or PROOFPR_PROVIDER=bedrock|vertex with that cloud's credentials)`,
    );
  }
  return createAnthropicClient({ apiKey: env.anthropicApiKey, ...(env.anthropicBaseUrl ? { baseURL: env.anthropicBaseUrl } : {}) });
}

/** For queued jobs: the client is made when a job starts, so a missing key fails that job, not the server. */
export function modelFactoryFromEnv(env: ModelEnv, command: string): ModelFactory {
  return () => modelFromEnv(env, command);
}
