/**
 * Thinking and effort through the loop (issue 26): the config's budget and effort reach every agent turn's
 * request, thinking blocks (signatures included) go back unchanged after a tool turn and after a
 * compaction, the summary request goes without thinking, and the evidence shows the thinking tokens and cost.
 */
import { describe, expect, it } from '@jest/globals';
import { COMPACTION_SYSTEM_PROMPT } from '../../src/agent/context/compaction.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { stamp, type RunEvent } from '../../src/agent/events.js';
import type { AssistantBlock, Message } from '../../src/model/model-client.js';
import { withModelSettings } from '../../src/model/model-settings.js';
import { toMessageParams } from '../../src/model/to-message-params.js';
import { createScriptedModel, text, thinking, toolUse } from '../../src/model/scripted.js';
import { costUsd, priceFor } from '../../src/model/pricing.js';
import { validateRepoConfig } from '../../src/config/repo-config.js';
import { stubToolbox } from '../agent/helpers.js';
import { contextManager, filler, loopDeps, runLoop, useFixtureRepo } from '../context/helpers.js';

const assistantTurns = (messages: Message[]): AssistantBlock[][] => messages.flatMap((m) => (m.role === 'assistant' ? [m.content] : []));

describe('thinking and effort', () => {
  const repo = useFixtureRepo();

  it('config - thinking.budget_tokens and effort are validated; a budget under 1024 names the field', () => {
    const cfg = validateRepoConfig({ thinking: { budget_tokens: 4000 }, effort: 'high' });
    expect(cfg.thinking).toEqual({ budget_tokens: 4000 });
    expect(cfg.effort).toBe('high');
    expect(validateRepoConfig({}).thinking).toBeUndefined();
    expect(() => validateRepoConfig({ thinking: { budget_tokens: 500 } })).toThrow(/thinking\.budget_tokens/);
    expect(() => validateRepoConfig({ effort: 'extreme' })).toThrow(/effort/);
  });

  it('request - thinking and effort map to the API fields; the output limit keeps room above the budget', () => {
    const req = withModelSettings(
      { model: 'm', system: [], tools: [], messages: [], maxTokens: 16000 },
      { thinking: { budgetTokens: 12000 }, effort: 'low' },
    );
    expect(req.maxTokens).toBe(20000);
    const params = toMessageParams(req);
    expect(params.thinking).toEqual({ type: 'enabled', budget_tokens: 12000 });
    expect(params.output_config).toEqual({ effort: 'low' });
    expect(toMessageParams({ model: 'm', system: [], tools: [], messages: [], maxTokens: 100 }).thinking).toBeUndefined();
  });

  it('loop - thinking blocks round-trip unchanged through a tool turn and a compaction; the evidence counts their tokens', async () => {
    const first = thinking('The parser probably drops the last line; read it.', 'sig-A-opaque==');
    const second = thinking('Now check the fix with the small echo.', 'sig-B-opaque==');
    const model = createScriptedModel([
      { content: [first, toolUse('Echo', { big: true }, 't1')] },
      { content: [second, toolUse('Echo', { big: false }, 't2')] },
      { error: 'prompt_too_long', message: 'prompt is too long: 30000 tokens > 20000 maximum' },
      { content: [text('## Task\nfix\n## Decisions\n-\n## Files touched\n-\n## Unverified or failing checks\n-\n## Next steps\n-')] },
      { content: [thinking('Done.', 'sig-C'), text('finished')] },
    ]);
    const toolbox = stubToolbox({
      Echo: (i) => ({ forModel: i.big ? filler('out', 24_000) : 'ok', isError: false }),
    });
    const context = await contextManager(repo.root, { toolNames: ['Echo'], contextWindow: 20_000 });
    const deps = loopDeps(
      { root: repo.root, model, context, toolbox },
      {
        costOf: (u) => costUsd('claude-sonnet-5-5', u),
        maxStopBlocks: 1,
        modelSettings: { thinking: { budgetTokens: 4000 }, effort: 'medium' },
      },
    );
    const { events, result } = await runLoop(deps, 'go');
    expect(result.status).toBe('completed');
    const [r1, r2, r3, summary, r5] = model.requests;
    // Every agent turn asks for thinking and effort; the summary request does not.
    for (const r of [r1, r2, r3, r5]) expect(r).toMatchObject({ thinking: { budgetTokens: 4000 }, effort: 'medium', maxTokens: 16000 });
    expect(summary?.system[0]?.text).toBe(COMPACTION_SYSTEM_PROMPT);
    expect(summary?.thinking).toBeUndefined();
    // After the tool turn: the first thinking block, signature and all, leads the assistant turn.
    expect(assistantTurns(r2!.messages)[0]?.[0]).toEqual(first);
    // After the compaction the history was rebuilt; the kept assistant turn still carries its thinking verbatim.
    expect(events.some((e) => e.type === 'compaction' && e.ok && e.kind === 'summary')).toBe(true);
    expect(JSON.stringify(r5!.messages)).not.toContain('out line 10:');
    const kept = assistantTurns(r5!.messages);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.[0]).toEqual(second);
    // The evidence: thinking tokens (part of the output) and their cost at the output price.
    const ledger: RunEvent[] = [
      stamp({ type: 'run_start', runId: 'r', task: { kind: 'prompt' }, model: 'claude-sonnet-5-5', root: repo.root }),
      ...events,
    ];
    const ev = buildEvidence(ledger, { repo: { baseSha: 'b', branch: 'x' }, filesChanged: [] });
    const thinkingTokens = [first, second].reduce((n, b) => n + Math.ceil(b.thinking.length / 4), Math.ceil('Done.'.length / 4));
    expect(ev.usage.thinkingTokens).toBe(thinkingTokens);
    expect(ev.usage.thinkingCostUsd).toBeCloseTo((thinkingTokens * priceFor('claude-sonnet-5-5').output) / 1e6, 9);
  });
});
