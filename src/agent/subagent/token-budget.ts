import { ModelError, type ModelClient, type Usage } from '../../model/model-client.js';

export interface BudgetedModel extends ModelClient {
  /** Tokens (input, cache and output) of every response so far. */
  spent(): number;
}

const tokensOf = (u: Usage): number => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** The message a sub-agent ends with when its token budget is spent (recognised in its reason). */
export const TOKEN_BUDGET_SPENT = 'token budget spent';

/** A model client that refuses to send once maxTokens are spent: a sub-agent's token budget. */
export function tokenBudget(model: ModelClient, maxTokens: number): BudgetedModel {
  let spent = 0;
  return {
    spent: () => spent,
    async send(request, onDelta) {
      if (spent >= maxTokens) throw new ModelError('fatal', `${TOKEN_BUDGET_SPENT} (${spent} of ${maxTokens} tokens)`);
      const response = await model.send(request, onDelta);
      spent += tokensOf(response.usage);
      return response;
    },
  };
}
