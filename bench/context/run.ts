/**
 * bench/context: a scripted 60-turn session through the ContextManager, billed with prompt caching versus
 * a naive harness that sends the same requests uncached. Prints the figures and a per-turn chart and
 * writes bench/results/context.json. Run: see bench/context/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, ToolSchema, UserBlock } from '../../src/model/model-client.js';
import { createScriptedModel } from '../../src/model/scripted.js';
import { createContextManager } from '../../src/agent/context/index.js';
import type { CompactionState } from '../../src/agent/context/types.js';
import { createCacheSim, type Bill } from './cache-sim.js';
import { assistantContent, scriptSession, TURNS } from './session.js';

const WINDOW = 200_000;
/** A second pass with a small window, so compaction (microcompact, then summary) happens and is billed. */
const STRESS_WINDOW = 40_000;
const TOOLS = ['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'TodoWrite', 'Write'];
const schemas: ToolSchema[] = TOOLS.map((name) => ({
  name,
  description: `${name}: ${'Detailed usage notes for the model, with examples and the rules the harness enforces. '.repeat(6)}`,
  input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'path inside the worktree' }, pattern: { type: 'string' }, command: { type: 'string' } }, additionalProperties: false },
}));

async function runSession(WINDOW: number) {
  const root = mkdtempSync(join(tmpdir(), 'proofpr-bench-ctx-'));
  writeFileSync(join(root, 'AGENTS.md'), '# Rules\n- Run `npm test` before finishing.\n- Keep the parser pure; no I/O in src/parser.\n');
  const ctx = await createContextManager({
    root,
    toolNames: TOOLS,
    task: { kind: 'issue', issue: 12, title: 'Parser drops the last line', body: 'When the input has no trailing newline, `splitLines` loses the last line.\n\nSteps: `echo -n "a\\nb" | parser` prints only `a`.' },
    testCommand: 'npm test',
    mode: 'fix',
    gatesEnabled: ['assertions_kept', 'final_run', 'tests_fresh', 'tests_passed', 'tests_ran'],
    contextWindow: WINDOW,
  });
  const system = ctx.system();
  const tools = ctx.tools(schemas);
  const summarizer = createScriptedModel(() => ({ content: [{ type: 'text', text: '## Task\nFix splitLines.\n## Decisions\n…\n## Files touched\n…\n## Unverified or failing checks\n…\n## Next steps\n…' }] }));
  const sim = createCacheSim();
  const state: CompactionState = { todos: [], filesEdited: [], gates: [], failingLogs: [] };
  let history: Message[] = [{ role: 'user', content: 'Fix issue #12 (see the task in the system prompt).' }];
  const rows: Array<Bill & { turn: number; naive: number; compaction?: string }> = [];
  let compactionBilled = 0;
  const script = scriptSession();

  for (let turn = 1; turn <= TURNS; turn++) {
    const compaction = await ctx.maybeCompact(history, state, summarizer);
    if (compaction?.ok) history = compaction.messages;
    const messages = ctx.prepare(history, { date: '2025-03-01', branch: 'proofpr/12-parser', turn, maxTurns: 80, costUsd: turn * 0.03, maxCostUsd: 5, minutesLeft: 30 - turn * 0.3, gates: state.gates, todos: state.todos });
    const bill = sim.bill({ system, tools, messages });
    rows.push({ turn, ...bill, naive: bill.total, ...(compaction ? { compaction: `${compaction.kind} ${compaction.beforeTokens}→${compaction.afterTokens}` } : {}) });
    const step = script[turn - 1]!;
    history = [...history, { role: 'assistant', content: assistantContent(step) }];
    if (step.calls.length === 0) break;
    const results: UserBlock[] = step.calls.map((c) => ({ type: 'tool_result', tool_use_id: c.use.id, content: c.result, ...(c.isError ? { is_error: true } : {}) }));
    history.push({ role: 'user', content: results });
    for (const e of step.edits) if (!state.filesEdited.includes(e)) state.filesEdited.push(e);
    if (step.todos) state.todos = step.todos;
    if (step.gates) {
      state.gates = step.gates;
      const log = step.gates.find((g) => !g.passed)?.detail.match(/log (\S+)\)/)?.[1];
      state.failingLogs = log ? [log] : [];
    }
  }
  for (const r of summarizer.requests) compactionBilled += sim.bill(r).total;
  rmSync(root, { recursive: true, force: true });

  return { rows, compactionBilled, WINDOW };
}

function report(label: string, run: Awaited<ReturnType<typeof runSession>>) {
  const { rows, compactionBilled, WINDOW } = run;
  const sum = (f: (r: (typeof rows)[number]) => number, from = 1): number => rows.filter((r) => r.turn >= from).reduce((n, r) => n + f(r), 0);
  const billed = sum((r) => r.billed) + compactionBilled;
  const naive = sum((r) => r.naive);
  const ratio = billed / naive;
  const readFraction = sum((r) => r.read, 2) / sum((r) => r.total, 2);
  const maxContext = Math.max(...rows.map((r) => r.total));
  const compactions = rows.filter((r) => r.compaction).map((r) => ({ turn: r.turn, what: r.compaction }));

  console.log(`context bench (${label}): scripted 60-turn session, window ${WINDOW}, billed input tokens (estimated) with prompt caching`);
  console.log('turn  context   read   write  uncached  chart (█ cache read  ▓ cache write  ░ uncached)');
  for (const r of rows) {
    const scale = 60 / maxContext;
    const bar = '█'.repeat(Math.round(r.read * scale)) + '▓'.repeat(Math.round(r.write * scale)) + '░'.repeat(Math.max(0, Math.round(r.uncached * scale)));
    console.log(`${String(r.turn).padStart(4)} ${String(r.total).padStart(8)} ${String(r.read).padStart(7)} ${String(r.write).padStart(7)} ${String(r.uncached).padStart(8)}  ${bar}${r.compaction ? `  ← ${r.compaction}` : ''}`);
  }
  const ok = (b: boolean): string => (b ? 'meets goal' : 'MISSES goal');
  console.log('');
  console.log(`billed input vs naive uncached: ${billed.toFixed(0)} / ${naive} = ${ratio.toFixed(3)}×  (goal ≤ 0.35×: ${ok(ratio <= 0.35)})`);
  console.log(`cache-read fraction of input, turns 2..${rows.length}: ${(readFraction * 100).toFixed(1)}%  (goal ≥ 85%: ${ok(readFraction >= 0.85)})`);
  console.log(`max context: ${maxContext} of ${WINDOW} tokens (${((maxContext / WINDOW) * 100).toFixed(1)}%: ${ok(maxContext < WINDOW)})`);
  console.log(`compactions: ${compactions.length === 0 ? 'none' : compactions.map((c) => `turn ${c.turn} ${c.what}`).join(', ')}; summary requests billed: ${compactionBilled}`);

  console.log('');
  return {
    turns: rows.length,
    window: WINDOW,
    billedInputTokens: Math.round(billed),
    naiveInputTokens: naive,
    billedRatio: Number(ratio.toFixed(4)),
    cacheReadFractionFromTurn2: Number(readFraction.toFixed(4)),
    maxContextTokens: maxContext,
    compactions,
    goals: { billedRatioMax: 0.35, cacheReadFractionMin: 0.85, met: ratio <= 0.35 && readFraction >= 0.85 && maxContext < WINDOW },
    perTurn: rows.map(({ turn, total, read, write, uncached, billed: b }) => ({ turn, total, read, write, uncached, billed: Math.round(b) })),
  };
}

const main = report('main', await runSession(WINDOW));
const stress = report('stress, informative', await runSession(STRESS_WINDOW));
const outDir = join(process.cwd(), 'bench', 'results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'context.json'), `${JSON.stringify({ bench: 'context', estimator: 'local estimate (src/agent/context/estimate.ts), not the API tokenizer', main, stress }, null, 2)}\n`);
// The goals apply to the main run; the stress run (a window 5× smaller) is informative.
if (!main.goals.met) process.exitCode = 1;
