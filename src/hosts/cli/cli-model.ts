/** The CLI's model client from the environment; a missing key is a usage error (exit 2) naming it. */
import type { ModelClient } from '../../model/model-client.js';
import { MissingApiKeyError, modelFromEnv } from '../shared/model-factory.js';
import { UsageError } from './usage-error.js';

export function cliModel(env: NodeJS.ProcessEnv, command: 'run' | 'sweep'): ModelClient {
  try {
    return modelFromEnv({ anthropicApiKey: env.ANTHROPIC_API_KEY, anthropicBaseUrl: env.ANTHROPIC_BASE_URL }, command);
  } catch (e) {
    if (e instanceof MissingApiKeyError) throw new UsageError(e.message);
    throw e;
  }
}
