/**
 * The reproduce-first gate of a CI fix round (`ci-reproduced`): the agent must have seen CI's failure
 * locally before changing anything, and seen it pass after. A run counts when its Bash command is one of
 * the commands CI's failing steps ran (or `test.command`), called the way a test run is (the command
 * itself plus arguments, never part of a chain, pipeline or redirect). The gate needs:
 * - a run of such a command that failed (non-zero exit) on the tree the run started from (the commit CI
 *   tested), and
 * - a later run of the same command that exited 0 on the current tree (or, for `test.command`, the
 *   harness's own final run passing).
 * Reproduce runs that are not test runs are kept here, out of the test-run list the other gates judge.
 */
import type { GateResult, TestRun } from '../../events.js';
import { loadBashParser } from '../../permissions/bash-parser.js';
import { isTestCommand } from './test-runs.js';
import type { BashOutcome, TestRunHandle } from '../types.js';
import type { Hash, VerifierContext } from '../verifier-context.js';

export interface ReproduceSpec {
  /** Commands CI's failing steps ran; `test.command` is always accepted too. */
  commands: string[];
}

interface ReproRun {
  /** The accepted command it matched. */
  matched: string;
  command: string;
  exitCode: number | null;
  treeHash: string;
  by: 'agent' | 'harness';
}

export interface ReproduceWatch {
  /** A handle when `command` is a reproduce run that is not a test run (test runs are already recorded). */
  before(command: string, isTestRun: boolean): Promise<TestRunHandle | undefined>;
  owns(handle: TestRunHandle): boolean;
  after(handle: TestRunHandle, outcome: BashOutcome): TestRun;
  gate(current: Hash): Promise<GateResult>;
}

export const CI_REPRODUCED = 'ci-reproduced';

export function reproduceWatch(ctx: VerifierContext, spec: ReproduceSpec): ReproduceWatch {
  const accepted = [
    ...new Set(
      [...spec.commands, ...(ctx.config.test.command ? [ctx.config.test.command] : [])].map((c) => c.trim()).filter((c) => c !== ''),
    ),
  ];
  // The tree the run started from: the commit CI tested (hashed before the agent's first tool call).
  const start = ctx.hash();
  const own: ReproRun[] = [];
  const handles = new WeakMap<TestRunHandle, string>();
  const matchOf = async (command: string): Promise<string | undefined> => {
    const parser = await loadBashParser();
    return accepted.find((a) => isTestCommand(command, a, parser));
  };
  const all = async (): Promise<ReproRun[]> => {
    const fromTests: ReproRun[] = [];
    for (const r of ctx.state.runs) {
      const matched = r.by === 'harness' ? (r.kind === 'final' ? ctx.config.test.command : undefined) : await matchOf(r.command);
      if (matched) fromTests.push({ matched, command: r.command, exitCode: r.exitCode, treeHash: r.treeHash, by: r.by });
    }
    return [...own, ...fromTests];
  };
  return {
    async before(command, isTestRun) {
      await start;
      if (isTestRun) return undefined;
      const matched = await matchOf(command);
      if (!matched) return undefined;
      const h = await ctx.hash();
      if (h.tree === undefined) return undefined;
      const handle: TestRunHandle = { command, treeHash: h.tree, startedAt: new Date().toISOString() };
      handles.set(handle, matched);
      return handle;
    },
    owns: (handle) => handles.has(handle),
    after(handle, outcome) {
      const matched = handles.get(handle) ?? handle.command;
      own.push({ matched, command: outcome.command || handle.command, exitCode: outcome.exitCode, treeHash: handle.treeHash, by: 'agent' });
      ctx.onEvent({
        type: 'notice',
        message: `reproduce run (CI fix): \`${handle.command}\` exited ${outcome.exitCode ?? 'without a code'}`,
      });
      return {
        command: handle.command,
        exitCode: outcome.exitCode,
        startedAt: handle.startedAt,
        endedAt: outcome.endedAt,
        treeHash: handle.treeHash,
        counts: null,
        source: 'none',
        by: 'agent',
      };
    },
    async gate(current) {
      return reproducedGate(accepted, (await start).tree, await all(), current);
    },
  };
}

/** Gate `ci-reproduced`: a run of an accepted command failed on the start tree, and one of it passed on the final tree. */
function reproducedGate(accepted: readonly string[], startTree: string | undefined, runs: readonly ReproRun[], current: Hash): GateResult {
  const list = accepted.map((c) => `\`${c}\``).join(', ');
  const red = runs.find((r) => r.exitCode !== null && r.exitCode !== 0 && startTree !== undefined && r.treeHash === startTree);
  if (!red)
    return {
      name: CI_REPRODUCED,
      passed: false,
      detail: `CI's failure was not reproduced: before changing anything, run the failing step's command (${list}) and see it fail${runs.length ? ` (runs seen: ${runs.map((r) => `\`${r.command}\` exit ${r.exitCode ?? 'none'}${r.treeHash === startTree ? '' : ' after changes'}`).join('; ')})` : ''}`,
    };
  const green = runs.find(
    (r) =>
      r.matched === red.matched && r.exitCode === 0 && (r.by === 'harness' || (current.tree !== undefined && r.treeHash === current.tree)),
  );
  if (!green)
    return {
      name: CI_REPRODUCED,
      passed: false,
      detail: `\`${red.command}\` failed before the fix (exit ${red.exitCode}) but no run of \`${red.matched}\` passed on the final files: make it pass and run it again`,
    };
  return {
    name: CI_REPRODUCED,
    passed: true,
    detail: `\`${red.command}\` failed before the fix (exit ${red.exitCode}) and \`${green.command}\` passed after it${green.by === 'harness' ? " (the harness's final run)" : ''}`,
  };
}
