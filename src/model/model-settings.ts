/**
 * The loop's per-request model settings (config `thinking:` and `effort:`, CONTRACT §10) applied to one
 * request. Thinking tokens count toward max_tokens and the API wants the budget below it, so the output
 * limit grows to leave the same room for the answer.
 */
import type { ModelRequest, ModelSettings } from './model-client.js';

/** Room left for the visible answer above the thinking budget, in tokens. */
export const ANSWER_ROOM_TOKENS = 8_000;

export function withModelSettings<R extends Pick<ModelRequest, 'maxTokens'>>(
  request: R,
  settings: ModelSettings | undefined,
): R & Pick<ModelRequest, 'thinking' | 'effort'> {
  if (!settings) return request;
  const budget = settings.thinking?.budgetTokens;
  const maxTokens = budget !== undefined ? Math.max(request.maxTokens, budget + ANSWER_ROOM_TOKENS) : request.maxTokens;
  return {
    ...request,
    maxTokens,
    ...(settings.thinking ? { thinking: { ...settings.thinking } } : {}),
    ...(settings.effort ? { effort: settings.effort } : {}),
  };
}
