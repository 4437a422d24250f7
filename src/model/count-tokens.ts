/**
 * Exact input-token count for a request through the API's count_tokens endpoint (free, rate-limited).
 * Use it when precision matters (deciding to compact near the limit); estimate otherwise.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelRequest } from './model-client.js';
import { createSdkClient, type AnthropicClientOptions } from './sdk-client.js';
import { toModelError } from './to-model-error.js';

type CountParams = Anthropic.Messages.MessageCountTokensParams;

export async function countTokens(
  opts: AnthropicClientOptions,
  request: Pick<ModelRequest, 'model' | 'system' | 'tools' | 'messages' | 'signal'>,
): Promise<number> {
  const sdk = createSdkClient(opts);
  const params: CountParams = {
    model: request.model,
    messages: request.messages as unknown as CountParams['messages'],
  };
  if (request.system.length > 0) params.system = request.system as unknown as CountParams['system'];
  if (request.tools.length > 0) params.tools = request.tools as unknown as CountParams['tools'];
  try {
    const res = await sdk.messages.countTokens(params, request.signal ? { signal: request.signal } : undefined);
    return res.input_tokens;
  } catch (err) {
    throw toModelError(err, { started: false, callerAborted: request.signal?.aborted ?? false });
  }
}
