/**
 * "Not run here, and why" (seed 000 §7.2): of the checks the repository has (the repo_checks event), the
 * ones this run did not run and pass on the final tree, each with the reason (never run; failed last;
 * passed before a later edit), and the ones it did. The test command is the harness's own evidence
 * (testRuns), so it is in neither list.
 */
import type { RunEvent } from '../events.js';

export interface NotRunCheck {
  check: string;
  why: string;
  /** Ran, but not as a pass on the final tree: its last run failed, or it passed before a later edit. */
  state?: 'failed' | 'stale';
}

export interface ChecksAccount {
  notRun: NotRunCheck[];
  /** Checks the agent ran whose last run passed after the last edit (on the tree that is committed). */
  ranPassed: string[];
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A Bash command runs the check when it contains the check's command (`npm run lint -- --fix` runs `npm run lint`). */
function runs(command: string, check: string): boolean {
  return ` ${squash(command)} `.includes(` ${squash(check)} `) || squash(command).startsWith(squash(check));
}

/** An edit of the worktree: a file tool's change (as the evidence's last edit is read). */
const isEdit = (e: RunEvent): boolean => e.type === 'file_changed' || (e.type === 'tool_result' && !e.isError && e.kind === 'edit');

/** Each command's last result, in the order the events happened, and the position of the last edit. */
function lastRuns(events: readonly RunEvent[]): { results: Array<{ command: string; ok: boolean; at: number }>; lastEdit: number } {
  const commands = new Map<string, string>();
  const results: Array<{ command: string; ok: boolean; at: number }> = [];
  let lastEdit = -1;
  events.forEach((e, i) => {
    if (isEdit(e)) lastEdit = i;
    if (e.type === 'tool_call') {
      const c = (e.input as { command?: unknown } | null)?.command;
      if (typeof c === 'string') commands.set(e.id, c);
    } else if (e.type === 'tool_result' && commands.has(e.id)) results.push({ command: commands.get(e.id)!, ok: !e.isError, at: i });
  });
  return { results, lastEdit };
}

/**
 * Of the checks the repository has, from the last run of each (seed 000 §7.2): ran and passed on the
 * final tree (after the last edit); or listed in notRun with why: never run, its last run failed, or
 * it passed before a later edit (so not on the tree that is committed).
 */
export function accountChecks(events: readonly RunEvent[]): ChecksAccount | undefined {
  const declared = events.flatMap((e) => (e.type === 'repo_checks' ? e.checks : []));
  if (declared.length === 0) return undefined;
  const start = events.find((e) => e.type === 'run_start');
  const testCommand = start?.type === 'run_start' ? start.test?.command : undefined;
  const { results, lastEdit } = lastRuns(events);
  const notRun: NotRunCheck[] = [];
  const ranPassed: string[] = [];
  for (const c of declared) {
    if (testCommand && squash(c.command) === squash(testCommand)) continue;
    const last = results.filter((r) => runs(r.command, c.command)).at(-1);
    if (!last) notRun.push({ check: c.command, why: whyNot(c.kind, c.source, testCommand) });
    else if (!last.ok) notRun.push({ check: c.command, why: 'its last run failed, and it was not run again after that', state: 'failed' });
    else if (last.at < lastEdit)
      notRun.push({ check: c.command, why: 'it passed before a later edit, so it did not run on the final tree', state: 'stale' });
    else ranPassed.push(c.command);
  }
  return { notRun, ranPassed };
}

function whyNot(kind: string, source: string, testCommand: string | undefined): string {
  const only = testCommand ? `the harness runs only the test command (\`${testCommand}\`)` : 'the harness runs only the test command';
  const what = kind === 'e2e' ? 'an end-to-end suite (it may need services this sandbox has no network for)' : `a ${kind} check`;
  return `${what} from ${source}: the agent did not run it and ${only}; CI runs it on the pushed commit`;
}
