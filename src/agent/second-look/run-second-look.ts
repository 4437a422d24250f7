/**
 * The second look itself: a sub-agent on the same loop with a fresh context, only Read, Grep and Glob
 * (checked by the same permission rules, in plan mode), no hooks and no verifier, under what is left of
 * the run's budget. It gets the issue, the diff and the final test output, and ends with its findings.
 * Not a gate unless `review.block_on: high`, and then only high-severity findings fail it.
 */
import type { Logger } from 'pino';
import type { ModelClient, Usage } from '../../model/model-client.js';
import { emptyUsage } from '../../model/model-client.js';
import type { ToolDefinition } from '../../tools/define-tool.js';
import { FileState } from '../../tools/file-state.js';
import { globTool } from '../../tools/glob.js';
import { grepTool } from '../../tools/grep.js';
import { readTool } from '../../tools/read.js';
import { createRegistry } from '../../tools/registry.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import type { Budget, RunSpend } from '../budget.js';
import type { RunEvent } from '../events.js';
import type { HookRunner } from '../hooks/types.js';
import { runAgent, type RunResult } from '../loop.js';
import { createPolicy } from '../permissions/create-policy.js';
import { readDenyPredicate } from '../permissions/read-deny.js';
import { secondLookContext } from './context.js';
import { parseFindings } from './parse-findings.js';
import { secondLookMessage, type SecondLookInput } from './prompt.js';
import type { Finding, SecondLook } from './types.js';

/** At most this many requests, whatever is left of the run's turns. */
export const SECOND_LOOK_MAX_TURNS = 12;

export interface SecondLookOptions {
  model: ModelClient;
  modelId: string;
  root: string;
  gitDir: string;
  runDir: string;
  exec: ExecPort;
  logger: Logger;
  /** The run's permission rules: the same policy, in plan (read-only) mode. */
  allow: string[];
  deny: string[];
  /** What is left of the run's budget (turns, cost, time). */
  budget: Budget;
  /** The run's shared spend: each request holds its worst case against the run's cap before it is sent. */
  spend?: RunSpend;
  costOf: (usage: Usage) => number;
  blockOn: 'none' | 'high';
  input: SecondLookInput;
  signal?: AbortSignal;
  onEvent?: (ev: RunEvent) => void;
}

const noHooks: HookRunner = { run: async () => [] };

function skipped(reason: string): SecondLook {
  return { status: 'skipped', findings: [], reason, usage: emptyUsage(), costUsd: 0, turns: 0 };
}

/** The second-look gate (block_on: high): fails on a high-severity finding, never on a missing answer. */
export function gateOf(blockOn: 'none' | 'high', look: Omit<SecondLook, 'gate'>): SecondLook['gate'] {
  if (blockOn !== 'high') return undefined;
  const high = look.findings.filter((f) => f.severity === 'high');
  if (high.length > 0)
    return {
      name: 'second-look',
      passed: false,
      detail: `${high.length} high-severity finding${high.length === 1 ? '' : 's'}: ${high.map((f) => (f.file ? `${f.file}: ${f.text}` : f.text)).join(' | ')}`,
    };
  const what =
    look.status === 'done'
      ? `${look.findings.length} finding(s), none high`
      : `no findings read (${look.reason ?? look.status}): not blocking`;
  // Findings below high were found and do not block: advisory, not passed.
  return { name: 'second-look', passed: true, detail: what, ...(look.findings.length > 0 ? { advisory: true } : {}) };
}

export async function runSecondLook(opts: SecondLookOptions): Promise<SecondLook> {
  const budget = { ...opts.budget, maxTurns: Math.min(opts.budget.maxTurns, SECOND_LOOK_MAX_TURNS) };
  if (budget.maxTurns < 1 || budget.maxCostUsd <= 0 || budget.timeoutMs <= 0) {
    const look = skipped('no budget left for a second look');
    return { ...look, ...withGate(opts.blockOn, look) };
  }
  const toolbox = createRegistry([readTool, grepTool, globTool] as ToolDefinition[]);
  const policy = await createPolicy({
    root: opts.root,
    mode: 'plan',
    allow: opts.allow,
    deny: opts.deny,
    gitDirs: [opts.gitDir],
    tools: toolbox,
    logger: opts.logger,
  });
  const gen = runAgent(
    { prompt: secondLookMessage(opts.input) },
    {
      model: opts.model,
      modelId: opts.modelId,
      toolbox,
      policy,
      hooks: noHooks,
      context: secondLookContext(),
      toolContext: {
        root: opts.root,
        runDir: opts.runDir,
        fileState: new FileState(),
        exec: opts.exec,
        logger: opts.logger,
        readDeny: readDenyPredicate(opts.root, opts.deny),
      },
      budget,
      ...(opts.spend ? { spend: opts.spend } : {}),
      costOf: opts.costOf,
      maxStopBlocks: 0,
      branch: '(second look, read-only)',
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  let result: RunResult;
  for (;;) {
    const n = await gen.next();
    if (n.done) {
      result = n.value;
      break;
    }
    opts.onEvent?.(n.value);
  }
  const spent = { usage: result.usage, costUsd: result.costUsd, turns: result.turns };
  const findings: Finding[] | undefined = result.status === 'completed' ? parseFindings(result.finalText) : undefined;
  const look: SecondLook = findings
    ? { status: 'done', findings, ...spent }
    : {
        status: 'failed',
        findings: [],
        reason: result.status === 'completed' ? 'its answer was not the JSON asked for' : `it ended ${result.status}: ${result.reason}`,
        ...spent,
      };
  return { ...look, ...withGate(opts.blockOn, look) };
}

function withGate(blockOn: 'none' | 'high', look: SecondLook): Pick<SecondLook, 'gate'> {
  const gate = gateOf(blockOn, look);
  return gate ? { gate } : {};
}
