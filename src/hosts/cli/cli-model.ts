/** The CLI's model client from the environment; a missing key (or cloud region) is a usage error (exit 2) naming it. */
import type { ModelClient } from '../../model/model-client.js';
import type { ModelProvider } from '../../model/provider.js';
import { MissingApiKeyError, modelFromEnv } from '../shared/model-factory.js';
import { UsageError } from './usage-error.js';

export function cliModel(env: NodeJS.ProcessEnv, command: 'run' | 'sweep', provider?: ModelProvider): ModelClient {
  try {
    return modelFromEnv({ anthropicApiKey: env.ANTHROPIC_API_KEY, anthropicBaseUrl: env.ANTHROPIC_BASE_URL, provider, env }, command);
  } catch (e) {
    if (e instanceof MissingApiKeyError) throw new UsageError(e.message);
    throw e;
  }
}
