/**
 * The model as every conversation of a run sees it: each request first holds its worst case against the
 * run's shared spend (src/agent/budget.ts), with its `max_tokens` lowered to what the cap still pays for;
 * the answer's price then replaces the hold. Docs: docs/security.md, "One budget".
 */
import { emptyUsage, ModelError, type ModelClient, type ModelRequest, type Usage } from '../model/model-client.js';
import type { RunSpend } from './budget.js';

/** A request is not sent when the cap cannot pay for this much output on top of its input. */
export const MIN_OUTPUT_TOKENS = 1024;
/** The input estimate never counts fewer tokens than one per this many characters of the request. */
export const MIN_CHARS_PER_TOKEN = 3;
/** An image's worst case: the API scales images down to about 1.15 megapixels, about 1,600 tokens. */
export const IMAGE_TOKENS = 1600;
/** The API's minimum thinking budget. */
const MIN_THINKING_TOKENS = 1024;

/** The run's budget refused a request: the conversation ends (not an API failure). */
export class BudgetStop extends ModelError {
  constructor(message: string) {
    super('fatal', message);
    this.name = 'BudgetStop';
  }
}

/** The request's size as the estimate counts it: its JSON, images counted apart at their worst case. */
function requestSize(req: ModelRequest): { chars: number; images: number } {
  let images = 0;
  const json = JSON.stringify([req.system, req.tools, req.messages], (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && (v as { type?: unknown }).type === 'image') {
      images++;
      return null;
    }
    return v;
  });
  return { chars: json.length, images };
}

const unit = (u: Partial<Usage>): Usage => ({ ...emptyUsage(), ...u });

/** The request with at most `maxTokens` of output (a thinking budget kept below it, as the API wants). */
function fit(request: ModelRequest, maxTokens: number): ModelRequest {
  if (maxTokens >= request.maxTokens) return request;
  const t = request.thinking;
  const thinking = t
    ? { thinking: { budgetTokens: Math.max(MIN_THINKING_TOKENS, Math.min(t.budgetTokens, maxTokens - MIN_OUTPUT_TOKENS)) } }
    : {};
  return { ...request, maxTokens, ...thinking };
}

/**
 * `model` drawing from `spend`: before each request its worst case (input estimated from its size at the
 * denser of 3 characters a token and what the previous answer measured, +10%, priced as cache writes, the
 * dearest input; plus `max_tokens` of output) is held; `max_tokens` is lowered to what is left; a request
 * that cannot get `MIN_OUTPUT_TOKENS` is not sent (BudgetStop). An answer that broke off mid-stream may
 * have been billed: its whole hold counts as spent.
 */
export function spendingModel(model: ModelClient, spend: RunSpend, costOf: (u: Usage) => number): ModelClient {
  const inputPrice = Math.max(costOf(unit({ inputTokens: 1 })), costOf(unit({ cacheWriteTokens: 1 })));
  const outputPrice = costOf(unit({ outputTokens: 1 }));
  let tokensPerChar = 1 / MIN_CHARS_PER_TOKEN;
  return {
    async send(request, onDelta) {
      const size = requestSize(request);
      const inputTokens = Math.ceil(size.chars * tokensPerChar) + size.images * IMAGE_TOKENS;
      const minTokens = MIN_OUTPUT_TOKENS + (request.thinking ? MIN_THINKING_TOKENS : 0);
      const want = { inputUsd: inputTokens * inputPrice, outputUsdPerToken: outputPrice, maxTokens: request.maxTokens, minTokens };
      const hold = await spend.hold(want, request.signal);
      if ('refused' in hold) {
        if (request.signal?.aborted) throw new ModelError('aborted', 'model request aborted by the caller');
        throw new BudgetStop(hold.refused);
      }
      let response;
      try {
        response = await model.send(fit(request, hold.maxTokens), onDelta);
      } catch (e) {
        const kind = e instanceof ModelError ? e.kind : 'fatal';
        if (kind === 'stream_broken' || kind === 'aborted') hold.settle(hold.worstUsd);
        else hold.release();
        throw e;
      }
      hold.settle(costOf(response.usage));
      const u = response.usage;
      const measured = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens - size.images * IMAGE_TOKENS;
      if (size.chars > 0 && measured > 0) tokensPerChar = Math.max(1 / MIN_CHARS_PER_TOKEN, (measured / size.chars) * 1.1);
      return response;
    },
  };
}
