/**
 * The run's one budget (src/agent/budget.ts, src/agent/budget-model.ts): every request holds its worst
 * case against the cap before it is sent, `max_tokens` is lowered to what the cap pays for, requests in
 * flight at once cannot overdraw between them, and a sub-agent's limits are what the run has left.
 */
import { describe, expect, it } from '@jest/globals';
import { createRunSpend } from '../../src/agent/budget.js';
import { BudgetStop, MIN_OUTPUT_TOKENS, spendingModel } from '../../src/agent/budget-model.js';
import { limitsFor, SUBAGENT_LIMITS } from '../../src/agent/subagent/run-subagent.js';
import type { ModelClient, ModelRequest, Usage } from '../../src/model/model-client.js';
import { costUsd } from '../../src/model/pricing.js';

const MODEL = 'claude-sonnet-5-5';
const costOf = (u: Usage): number => costUsd(MODEL, u);

function request(text: string, maxTokens = 16_000): ModelRequest {
  return { model: MODEL, system: [{ type: 'text', text: 'sys' }], tools: [], messages: [{ role: 'user', content: text }], maxTokens };
}

/** A model that bills like the API: input by size (4 characters a token), output `wanted` tokens cut at max_tokens. */
function billing(wanted: number, delayMs = 0): ModelClient & { billed: number; seen: ModelRequest[] } {
  const m = {
    billed: 0,
    seen: [] as ModelRequest[],
    async send(req: ModelRequest) {
      m.seen.push(req);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const usage: Usage = {
        inputTokens: Math.ceil(JSON.stringify([req.system, req.tools, req.messages]).length / 4),
        outputTokens: Math.min(wanted, req.maxTokens),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      };
      m.billed += costOf(usage);
      return { content: [{ type: 'text' as const, text: 'ok' }], stopReason: 'end_turn', usage, model: MODEL };
    },
  };
  return m;
}

describe('one budget for every request of a run', () => {
  it('spend - max_tokens is lowered to what the cap pays for; a request that cannot get the minimum is not sent', async () => {
    const spend = createRunSpend({ maxTurns: 100, maxCostUsd: 0.05 });
    const inner = billing(4000);
    const model = spendingModel(inner, spend, costOf);
    await model.send(request('x'.repeat(3000)));
    // $0.05 left, input ~1,000 tokens held at the cache-write price: about 4,700 output tokens at $10/M.
    expect(inner.seen[0]!.maxTokens).toBeLessThan(5000);
    expect(inner.seen[0]!.maxTokens).toBeGreaterThan(4000);
    let stop: unknown;
    for (let i = 0; i < 20 && !stop; i++) await model.send(request('y'.repeat(3000))).catch((e: unknown) => (stop = e));
    expect(stop).toBeInstanceOf(BudgetStop);
    expect((stop as Error).message).toMatch(/^cost budget exhausted \(\$0\.\d{4} of \$0\.0500 spent; the next request could cost/);
    expect(inner.billed).toBeLessThanOrEqual(0.05);
    expect(spend.costUsd()).toBeCloseTo(inner.billed, 9);
  });

  it('spend - requests in flight at once (sub-agents of one turn) hold their worst cases together and never overdraw', async () => {
    const spend = createRunSpend({ maxTurns: 100, maxCostUsd: 0.05 });
    const inner = billing(800, 5);
    const model = spendingModel(inner, spend, costOf);
    const conversation = async (n: number): Promise<string> => {
      for (let i = 0; ; i++) {
        try {
          await model.send(request(`conversation ${n} turn ${i} `.repeat(100)));
        } catch (e) {
          return (e as Error).name;
        }
      }
    };
    const ends = await Promise.all([conversation(1), conversation(2), conversation(3), conversation(4)]);
    expect(ends).toEqual(['BudgetStop', 'BudgetStop', 'BudgetStop', 'BudgetStop']);
    expect(inner.billed).toBeLessThanOrEqual(0.05);
    expect(inner.seen.length).toBeGreaterThan(3);
    expect(inner.seen.every((r) => r.maxTokens >= MIN_OUTPUT_TOKENS)).toBe(true);
    expect(spend.left().costUsd).toBeLessThan(0.05 - inner.billed + 1e-9);
  });

  it('spend - a thinking budget stays below a lowered max_tokens', async () => {
    const spend = createRunSpend({ maxTurns: 100, maxCostUsd: 0.05 });
    const inner = billing(100);
    await spendingModel(inner, spend, costOf).send({ ...request('hi', 40_000), thinking: { budgetTokens: 30_000 } });
    const sent = inner.seen[0]!;
    expect(sent.maxTokens).toBeLessThan(5000);
    expect(sent.thinking!.budgetTokens).toBeGreaterThanOrEqual(1024);
    expect(sent.thinking!.budgetTokens).toBeLessThan(sent.maxTokens);
  });

  it('spend - turns of every conversation count; a sub-agent gets the smaller of its own limits and what the run has left', () => {
    const spend = createRunSpend({ maxTurns: 10, maxCostUsd: 0.05 });
    expect(limitsFor(SUBAGENT_LIMITS, spend)).toMatchObject({ maxTurns: 10, maxCostUsd: 0.05 });
    for (let i = 0; i < 7; i++) spend.addTurn();
    expect(limitsFor(SUBAGENT_LIMITS, spend)).toMatchObject({ maxTurns: 3 });
    expect(limitsFor(SUBAGENT_LIMITS, undefined)).toEqual(SUBAGENT_LIMITS);
    for (let i = 0; i < 3; i++) spend.addTurn();
    expect(spend.exceeded()).toBe("turn budget exhausted (10 turns, sub-agents' included)");
  });
});
