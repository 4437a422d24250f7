/**
 * One budget for every model conversation the run starts (issue 37).
 *
 * The rule the cases are written by, before the mechanism was built: every way a run starts a model
 * conversation that is not the main loop (Task sub-agents of each type, `explore` and `plan`), in each
 * mode a run has (fix and plan), three sub-agents started in one turn (they run at the same time), under a
 * cap far below what a sub-agent alone may spend by its own defaults ($2, 20 turns). Each case must end
 * within the run's cap, counted independently of the harness (the fake model adds up what it billed),
 * and keep each sub-agent's transcript, redacted, in the run folder, listed in `evidence.subagents`.
 *
 * The fake model behaves as the Messages API does where the budget depends on it: the input is billed by
 * the request's size, and no answer is longer than the request's `max_tokens` (a longer one is cut, with
 * stop reason `max_tokens`). The sub-agents never finish on their own: only a budget can end them.
 *
 * First try (the code before this mechanism): see docs/benchmarks.md, "One budget for everything the run starts".
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest } from '../../src/model/model-client.js';
import { costUsd } from '../../src/model/pricing.js';
import { text, toolUse, type ScriptFn } from '../../src/model/scripted.js';
import { demoConfig, fixtureRepo, MEDIAN_ISSUE, runIssue } from './helpers.js';

const MODEL = 'claude-sonnet-5-5';
const CAP = 0.05;
/** A token in a known format: a sub-agent writes it in a search, its transcript must not keep it. */
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;

const isSub = (req: ModelRequest): boolean => req.system.some((b) => b.text.includes('read-only sub-agent'));
const inputTokens = (req: ModelRequest): number => Math.ceil(JSON.stringify([req.system, req.tools, req.messages]).length / 4);

/** A model that bills like the API and whose sub-agents never stop; `billed` adds up every answer's price. */
function spender(types: string[]): { script: ScriptFn; billed: () => number; subRequests: () => number } {
  let billed = 0;
  let subs = 0;
  let parent = 0;
  const script: ScriptFn = (req) => {
    const wanted = isSub(req) ? 1500 : 300;
    const out = Math.min(wanted, req.maxTokens);
    const usage = { inputTokens: inputTokens(req), outputTokens: out, cacheReadTokens: 0, cacheWriteTokens: 0 };
    billed += costUsd(MODEL, usage);
    if (out < wanted) return { content: [text('(cut)')], stopReason: 'max_tokens', usage };
    if (isSub(req)) {
      subs++;
      return { content: [toolUse('Grep', { pattern: subs === 1 ? TOKEN : `median|n${subs}` })], usage };
    }
    parent++;
    if (parent === 1)
      return {
        content: types.map((t, i) =>
          toolUse('Task', { description: `look ${i}`, prompt: `Find where median is computed (${i}).`, subagent_type: t }, `task_${i}`),
        ),
        usage,
      };
    return { content: [toolUse('Read', { file_path: 'src/stats.js', offset: parent, limit: 5 })], usage };
  };
  return { script, billed: () => billed, subRequests: () => subs };
}

describe('one budget: sub-agents draw from the run', () => {
  it.each([
    ['fix', ['explore', 'plan', 'explore']],
    ['plan', ['plan', 'explore', 'explore']],
  ] as const)(
    'one-budget - %s mode, three sub-agents (%j) under a $0.05 cap: the run ends within it, each transcript is kept',
    async (mode, types) => {
      const m = spender([...types]);
      const repo = fixtureRepo();
      const { res } = await runIssue(repo, {
        issue: MEDIAN_ISSUE,
        branch: 'proofpr/7-median',
        config: demoConfig(`max_cost_usd: ${CAP}\nmodel: ${MODEL}\n`),
        script: m.script,
        mode,
      });
      const runDir = join(repo.work, 'run');
      const summary = {
        billedUsd: Math.round(m.billed() * 1e4) / 1e4,
        subRequests: m.subRequests(),
        subagents: (res.evidence as { subagents?: unknown[] }).subagents?.length ?? 0,
      };
      process.stdout.write(`one-budget ${mode}: ${JSON.stringify(summary)}\n`);
      expect(m.billed()).toBeLessThanOrEqual(CAP);
      expect(res.evidence.usage.costUsd).toBeLessThanOrEqual(CAP);
      expect(res.evidence.usage.costUsd).toBeCloseTo(m.billed(), 5);
      // The run ended because the next request could not be paid for, not because a request overdrew.
      expect(readFileSync(join(runDir, 'transcript.jsonl'), 'utf8')).toContain('cost budget exhausted');
      const subagents = (res.evidence as { subagents?: Array<{ id: string; turns: number; costUsd: number; transcript: string }> })
        .subagents;
      expect(subagents?.map((s) => s.id).sort()).toEqual(['task_0', 'task_1', 'task_2']);
      for (const s of subagents ?? []) {
        expect(s.transcript).toBe(`subagents/${s.id}.jsonl`);
        const path = join(runDir, s.transcript);
        expect(existsSync(path)).toBe(true);
        const lines = readFileSync(path, 'utf8').trim().split('\n');
        expect(lines.length).toBeGreaterThan(0);
        for (const l of lines) JSON.parse(l);
        expect(readFileSync(path, 'utf8')).not.toContain(TOKEN);
        expect(s.costUsd).toBeLessThanOrEqual(CAP);
        // Its turns are the requests it sent: a request the cap refused is not one.
        expect(lines.filter((l) => l.includes('"type":"assistant"'))).toHaveLength(s.turns);
      }
      // A sub-agent that was answered keeps its own turns in its transcript; the token it searched for is redacted there.
      const kept = (subagents ?? []).map((s) => readFileSync(join(runDir, s.transcript), 'utf8'));
      expect(kept.some((t) => t.includes('"type":"assistant"') && t.includes('[REDACTED'))).toBe(true);
      const total = (subagents ?? []).reduce((n, s) => n + s.costUsd, 0);
      expect(total).toBeLessThanOrEqual(res.evidence.usage.costUsd + 1e-9);
      // The main transcript does not hold the sub-agents' own turns, only their end.
      expect(readFileSync(join(runDir, 'transcript.jsonl'), 'utf8')).not.toContain(TOKEN);
    },
    180_000,
  );
});
