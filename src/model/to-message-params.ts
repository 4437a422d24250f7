/**
 * ModelRequest → the SDK's streaming create params. Blocks pass through unchanged (cache_control included;
 * thinking blocks with their signatures), thinking and effort as the API names them.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelRequest } from './model-client.js';

type StreamParams = Anthropic.Messages.MessageCreateParamsStreaming;

export function toMessageParams(request: ModelRequest): StreamParams {
  const params: StreamParams = {
    model: request.model,
    max_tokens: request.maxTokens,
    // Our block shapes mirror the API's; the casts only widen our narrower types to the SDK's unions.
    messages: request.messages as unknown as StreamParams['messages'],
    stream: true,
  };
  if (request.system.length > 0) params.system = request.system as unknown as StreamParams['system'];
  if (request.tools.length > 0) params.tools = request.tools as unknown as StreamParams['tools'];
  if (request.thinking) params.thinking = { type: 'enabled', budget_tokens: request.thinking.budgetTokens };
  if (request.effort) params.output_config = { effort: request.effort };
  return params;
}
