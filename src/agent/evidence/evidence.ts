/**
 * The evidence object (CONTRACT §5) as a pure function of the ledger plus the few facts the events
 * do not carry (repo, files changed, PR). The harness decides "verified" from these, never the model.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FlakyTest, RunEvent, TestRun, UntestedHunk, Verdict } from '../events.js';
import { collectDenials } from './denials.js';
import { acceptedTreeHash, selectFinalGates } from './final-gates.js';
import type { Evidence, EvidenceUsage, FileChange } from './types.js';
import { secondLookOf } from './second-look-evidence.js';
import { priceFor } from '../../model/pricing.js';
import { accountChecks } from './not-run.js';

export interface EvidenceFacts {
  repo: Evidence['repo'];
  filesChanged: FileChange[];
  /** Default: run_start's runId. */
  runId?: string;
  /** Default: run_start's task. */
  task?: Evidence['task'];
  pr?: { number: number; url: string };
  /** Default: run_start's sandbox when it is 'bwrap' or 'none'. */
  sandbox?: 'bwrap' | 'none';
  sandboxReason?: string;
  test?: Evidence['test'];
  setup?: Evidence['setup'];
  /** Default: run_start's model. */
  model?: string;
  /** Default: run_start's ts (else the first event's). */
  startedAt?: string;
  /** Default: run_end's ts (else the last event's). */
  endedAt?: string;
  /** Default: the last run_end event's verdict and reason. */
  verdict?: Verdict;
  reason?: string;
  /** Default: the tree hash of the last test run the final gates accepted. */
  finalTreeHash?: string;
  baseline?: TestRun;
  redGreen?: Evidence['redGreen'];
  /** Added to the hook errors found in the events. */
  hookErrors?: string[];
  leftOut?: Evidence['leftOut'];
  infrastructureChanges?: Evidence['infrastructureChanges'];
  masked?: string[];
}

type Of<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;
const TASK_KINDS = new Set(['issue', 'prompt', 'sweep']);

function lastOf<T extends RunEvent['type']>(events: readonly RunEvent[], type: T): Of<T> | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (events[i]?.type === type) return events[i] as Of<T>;
  return undefined;
}

function taskFrom(start: Of<'run_start'> | undefined): Evidence['task'] {
  const t = start?.task;
  const kind = t && TASK_KINDS.has(t.kind) ? (t.kind as Evidence['task']['kind']) : 'prompt';
  return { kind, ...(t?.issue !== undefined ? { issue: t.issue } : {}), title: t?.title ?? '' };
}

/** A Task sub-agent's requests are the run's too: counted in the totals, and on their own under `subagents`. */
function addSubagent(u: EvidenceUsage, ev: Of<'subagent'>): void {
  u.inputTokens += ev.usage.inputTokens;
  u.outputTokens += ev.usage.outputTokens;
  u.cacheReadTokens += ev.usage.cacheReadTokens;
  u.cacheWriteTokens += ev.usage.cacheWriteTokens;
  u.costUsd += ev.costUsd;
  u.turns += ev.turns;
  const s = (u.subagents ??= { runs: 0, turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  s.runs += 1;
  s.turns += ev.turns;
  s.inputTokens += ev.usage.inputTokens;
  s.outputTokens += ev.usage.outputTokens;
  s.costUsd = Math.round((s.costUsd + ev.costUsd) * 1e6) / 1e6;
}

/** evidence.subagents: each Task sub-agent, in the order they ended, with its transcript when one was kept. */
function subagentsOf(events: readonly RunEvent[]): Pick<Evidence, 'subagents'> {
  const list = events.flatMap((ev) =>
    ev.type === 'subagent'
      ? [
          {
            id: ev.id,
            turns: ev.turns,
            costUsd: Math.round(ev.costUsd * 1e6) / 1e6,
            ...(ev.transcript ? { transcript: ev.transcript } : {}),
          },
        ]
      : [],
  );
  return list.length ? { subagents: list } : {};
}

function usageOf(events: readonly RunEvent[], model: string | undefined): EvidenceUsage {
  const u: EvidenceUsage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    turns: 0,
    compactions: 0,
  };
  for (const ev of events) {
    if (ev.type === 'assistant') {
      u.inputTokens += ev.usage.inputTokens;
      u.outputTokens += ev.usage.outputTokens;
      u.cacheReadTokens += ev.usage.cacheReadTokens;
      u.cacheWriteTokens += ev.usage.cacheWriteTokens;
      u.costUsd += ev.costUsd;
      u.turns += 1;
      if (ev.usage.thinkingTokens) u.thinkingTokens = (u.thinkingTokens ?? 0) + ev.usage.thinkingTokens;
    } else if (ev.type === 'compaction' && ev.ok) {
      // Every compaction that replaced the history (as the loop counts them); failed attempts are events only.
      u.compactions += 1;
    } else if (ev.type === 'second_look') {
      // The second look's requests are the run's too: its tokens count against the budget and show here.
      u.inputTokens += ev.look.usage.inputTokens;
      u.outputTokens += ev.look.usage.outputTokens;
      u.cacheReadTokens += ev.look.usage.cacheReadTokens;
      u.cacheWriteTokens += ev.look.usage.cacheWriteTokens;
      u.costUsd += ev.look.costUsd;
      u.turns += ev.look.turns;
    } else if (ev.type === 'subagent') {
      addSubagent(u, ev);
    }
  }
  u.costUsd = Math.round(u.costUsd * 1e6) / 1e6;
  // Thinking is billed as output: its share of the cost, at the model's output price.
  if (u.thinkingTokens) u.thinkingCostUsd = Math.round(u.thinkingTokens * priceFor(model ?? '').output) / 1e6;
  return u;
}

function lastEditAt(events: readonly RunEvent[]): string | undefined {
  let at: string | undefined;
  for (const ev of events) {
    if (ev.type === 'file_changed' || (ev.type === 'tool_result' && !ev.isError && ev.kind === 'edit')) at = ev.ts;
  }
  return at;
}

/** Builds the evidence object from the ledger and the facts outside it. Pure: same input, same output. */
export function buildEvidence(events: readonly RunEvent[], facts: EvidenceFacts): Evidence {
  const start = lastOf(events, 'run_start');
  const end = lastOf(events, 'run_end');
  const selection = selectFinalGates(events);
  const toolCalls: Record<string, number> = {};
  for (const ev of events) if (ev.type === 'tool_call') toolCalls[ev.name] = (toolCalls[ev.name] ?? 0) + 1;
  const hookErrors = [
    ...events.flatMap((ev) => (ev.type === 'hook' && ev.outcome === 'error' ? [`${ev.event} ${ev.name}: ${ev.message ?? 'failed'}`] : [])),
    ...(facts.hookErrors ?? []),
  ];
  const sandbox = facts.sandbox ?? (start?.sandbox === 'bwrap' || start?.sandbox === 'none' ? start.sandbox : undefined);
  const model = facts.model ?? start?.model;
  const editAt = lastEditAt(events);
  const finalTreeHash = facts.finalTreeHash ?? acceptedTreeHash(events, selection);
  const look = lastOf(events, 'second_look')?.look;
  const diff = lastOf(events, 'differential');
  const checks = accountChecks(events);
  return {
    version: 1,
    runId: facts.runId ?? start?.runId ?? '',
    startedAt: facts.startedAt ?? start?.ts ?? events[0]?.ts ?? '',
    endedAt: facts.endedAt ?? end?.ts ?? events.at(-1)?.ts ?? '',
    verdict: facts.verdict ?? end?.verdict ?? 'error',
    reason: facts.reason ?? end?.reason ?? 'The run ended without recording a verdict.',
    task: facts.task ?? taskFrom(start),
    repo: facts.repo,
    gates: look?.gate ? [...selection.gates, look.gate] : selection.gates,
    testRuns: events.flatMap((ev) => (ev.type === 'test_run' ? [ev.run] : [])),
    ...(editAt !== undefined ? { lastEditAt: editAt } : {}),
    ...(finalTreeHash !== undefined ? { finalTreeHash } : {}),
    filesChanged: facts.filesChanged,
    toolCalls,
    denied: collectDenials(events),
    usage: usageOf(events, model),
    ...(facts.pr ? { pr: facts.pr } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(facts.sandboxReason && sandbox !== 'bwrap' ? { sandboxReason: facts.sandboxReason } : {}),
    ...(facts.test ? { test: facts.test } : {}),
    ...(facts.setup ? { setup: facts.setup } : {}),
    ...(facts.baseline ? { baseline: facts.baseline } : {}),
    ...(facts.redGreen ? { redGreen: facts.redGreen } : {}),
    ...(diff ? { differential: diff.differential } : {}),
    ...fixOf(events),
    ...(diff?.changedExpectations.length ? { changedExpectations: diff.changedExpectations } : {}),
    ...(hookErrors.length > 0 ? { hookErrors } : {}),
    ...(facts.leftOut?.length ? { leftOut: facts.leftOut } : {}),
    ...(facts.infrastructureChanges?.length ? { infrastructureChanges: facts.infrastructureChanges } : {}),
    ...(facts.masked?.length ? { masked: facts.masked } : {}),
    ...maskedReadsOf(facts.baseline, events),
    ...flakyOf(facts.baseline, events),
    ...untestedHunksOf(events),
    ...(model ? { model } : {}),
    ...(look ? { secondLook: secondLookOf(look) } : {}),
    ...subagentsOf(events),
    ...(checks ? { notRun: checks.notRun, checksPassed: checks.ranPassed } : {}),
  };
}

/** The masked paths any harness test run read (the baseline's and those in the events), sorted. */
function maskedReadsOf(baseline: TestRun | undefined, events: readonly RunEvent[]): { maskedReads?: string[] } {
  const runs = [baseline, ...events.map((e) => (e.type === 'test_run' ? e.run : undefined))];
  const reads = [...new Set(runs.flatMap((r) => r?.maskedReads ?? []))].sort();
  return reads.length ? { maskedReads: reads } : {};
}

/** Every flaky test of the harness runs (the baseline's and those in the events), the most runs of each kept, sorted. */
function flakyOf(baseline: TestRun | undefined, events: readonly RunEvent[]): { flaky?: FlakyTest[] } {
  const runs = [baseline, ...events.map((e) => (e.type === 'test_run' ? e.run : undefined))];
  const by = new Map<string, FlakyTest>();
  for (const f of runs.flatMap((r) => r?.flaky ?? [])) if ((by.get(f.test)?.runs ?? 0) < f.runs) by.set(f.test, f);
  const flaky = [...by.values()].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
  return flaky.length ? { flaky } : {};
}

/** The last untested-hunks check's list (verification/hunks), when it found any. */
function untestedHunksOf(events: readonly RunEvent[]): {
  untestedHunks?: UntestedHunk[];
  untestedHunksScope?: 'changed tests' | 'all tests';
} {
  const last = lastOf(events, 'untested_hunks');
  return last?.hunks.length ? { untestedHunks: last.hunks, ...(last.scope ? { untestedHunksScope: last.scope } : {}) } : {};
}

/** Writes runDir/evidence.json atomically (temp file + rename); returns its path. */
export async function writeEvidence(runDir: string, evidence: Evidence): Promise<string> {
  await mkdir(runDir, { recursive: true });
  const path = join(runDir, 'evidence.json');
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(evidence, null, 2) + '\n', 'utf8');
  await rename(tmp, path);
  return path;
}

/** The shipped-code changes of the last final check and whether reverting them made the new tests fail (evidence `fix`). */
function fixOf(events: readonly RunEvent[]): Pick<Evidence, 'fix'> {
  const f = lastOf(events, 'fix');
  return f ? { fix: f.fix } : {};
}
