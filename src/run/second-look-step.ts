/**
 * Step 6b (review.enabled): after the loop ended with every gate passed, the second look reviews the
 * issue, the diff and the final test output with a fresh context and read-only tools, under what is
 * left of the run's budget. Its findings go in the evidence (and so the PR body); its tokens in usage.
 * With `review.block_on: high`, a high-severity finding fails the `second-look` gate: the run becomes
 * unverified and the work is kept as WIP instead of committed as verified.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stamp, type RunEvent } from '../agent/events.js';
import type { RunSpend } from '../agent/budget.js';
import type { RunResult } from '../agent/loop.js';
import { redactDeep as redactValue } from '../secrets/index.js';
import { runSecondLook } from '../agent/second-look/run-second-look.js';
import { costUsd } from '../model/pricing.js';
import { emptyUsage } from '../model/model-client.js';
import { logger } from '../log.js';
import { diffText } from '../workspace/diff-stat.js';
import type { RunRecord } from './run-record.js';
import type { RunStep } from './run-step.js';

const log = logger('second-look');
const MAX_DIFF_BYTES = 200_000;

export async function secondLookStep(
  step: RunStep,
  result: RunResult,
  rec: RunRecord,
  startedAtMs: number,
  spend?: RunSpend,
): Promise<RunResult> {
  const { input } = step;
  if (!input.config.review.enabled || input.mode !== 'fix' || result.status !== 'completed') return result;
  try {
    return await lookAndJudge(step, result, rec, startedAtMs, spend);
  } catch (e) {
    // Advisory by design: a second look that breaks never costs the run its verdict.
    const reason = `it could not run: ${(e as Error).message}`;
    log.warn({ err: (e as Error).message }, 'second look failed');
    const gate =
      input.config.review.block_on === 'high'
        ? { gate: { name: 'second-look', passed: true, detail: `no findings read (${reason}): not blocking` } }
        : {};
    rec.record(
      stamp({ type: 'second_look', look: { status: 'failed', findings: [], reason, usage: emptyUsage(), costUsd: 0, turns: 0, ...gate } }),
    );
    return result;
  }
}

async function lookAndJudge(
  { input, settings, ws, exec }: RunStep,
  result: RunResult,
  rec: RunRecord,
  startedAtMs: number,
  spend?: RunSpend,
): Promise<RunResult> {
  const { config } = input;
  const { limits } = settings;
  const diff = await diffText(ws.wt.path, ws.wt.baseSha, MAX_DIFF_BYTES, ws.git);
  const transcript = join(input.runDir, 'second-look.jsonl');
  const look = await runSecondLook({
    model: input.model,
    modelId: input.modelId,
    root: ws.wt.path,
    gitDir: ws.wt.gitDir,
    runDir: input.runDir,
    exec,
    logger: log,
    allow: settings.permissions.allow,
    deny: settings.permissions.deny,
    // What the run left: with the shared spend, its sub-agents' turns and cost counted too.
    budget: {
      maxTurns: spend ? spend.left().turns : limits.maxTurns - result.turns,
      maxCostUsd: spend ? spend.left().costUsd : limits.maxCostUsd - result.costUsd,
      timeoutMs: limits.timeoutMs - (Date.now() - startedAtMs),
    },
    ...(spend ? { spend } : {}),
    costOf: (u) => costUsd(input.modelId, u),
    blockOn: config.review.block_on,
    input: {
      issue: { title: input.task.title, body: input.task.body, ...(input.task.issue !== undefined ? { number: input.task.issue } : {}) },
      diff,
      testOutput: await finalTestOutput(rec.ledger.events()),
      ...(settings.test.command ? { testCommand: settings.test.command } : {}),
    },
    ...(input.signal ? { signal: input.signal } : {}),
    // The sub-agent's own events go to a transcript of their own (redacted), not into the run's ledger.
    onEvent: (ev) => void appendFile(transcript, `${JSON.stringify(redactValue(ev, rec.secrets))}\n`).catch(() => undefined),
  });
  rec.record(stamp({ type: 'second_look', look }));
  const gate = look.gate;
  if (!gate || gate.passed) return result;
  return {
    ...result,
    status: 'unverified',
    reason: `the second look found what blocks it (review.block_on: high): ${gate.detail}`,
    gates: [...result.gates, gate],
  };
}

/** What the harness's final run printed (its saved output), else the last test run's. */
async function finalTestOutput(events: readonly RunEvent[]): Promise<string> {
  const runs = events.flatMap((e) => (e.type === 'test_run' ? [e.run] : []));
  const final = [...runs].reverse().find((r) => r.kind === 'final') ?? runs.filter((r) => r.kind !== 'baseline').at(-1);
  if (!final?.outputPath) return final ? `(exit ${final.exitCode ?? 'killed'}; no output saved)` : '(no test run recorded)';
  try {
    return await readFile(final.outputPath, 'utf8');
  } catch {
    return `(exit ${final.exitCode ?? 'killed'}; the output at ${final.outputPath} could not be read)`;
  }
}
