/**
 * "Not run here, and why" (seed 000 §7.2): of the checks the repository has (the repo_checks event), the
 * ones this run never ran, each with the reason, and the ones the agent ran and that passed. The test
 * command is the harness's own evidence (testRuns), so it is in neither list.
 */
import type { RunEvent } from '../events.js';

export interface NotRunCheck {
  check: string;
  why: string;
}

export interface ChecksAccount {
  notRun: NotRunCheck[];
  /** Checks the agent ran whose last run passed. */
  ranPassed: string[];
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A Bash command runs the check when it contains the check's command (`npm run lint -- --fix` runs `npm run lint`). */
function runs(command: string, check: string): boolean {
  return ` ${squash(command)} `.includes(` ${squash(check)} `) || squash(command).startsWith(squash(check));
}

export function accountChecks(events: readonly RunEvent[]): ChecksAccount | undefined {
  const declared = events.flatMap((e) => (e.type === 'repo_checks' ? e.checks : []));
  if (declared.length === 0) return undefined;
  const start = events.find((e) => e.type === 'run_start');
  const testCommand = start?.type === 'run_start' ? start.test?.command : undefined;
  const commands = new Map<string, string>();
  const results = new Map<string, boolean>();
  for (const e of events) {
    if (e.type === 'tool_call') {
      const c = (e.input as { command?: unknown } | null)?.command;
      if (typeof c === 'string') commands.set(e.id, c);
    } else if (e.type === 'tool_result' && commands.has(e.id)) results.set(commands.get(e.id)!, !e.isError);
  }
  const notRun: NotRunCheck[] = [];
  const ranPassed: string[] = [];
  for (const c of declared) {
    if (testCommand && squash(c.command) === squash(testCommand)) continue;
    const last = [...results.entries()].reverse().find(([cmd]) => runs(cmd, c.command));
    if (last?.[1]) ranPassed.push(c.command);
    else if (!last) notRun.push({ check: c.command, why: whyNot(c.kind, c.source, testCommand) });
  }
  return { notRun, ranPassed };
}

function whyNot(kind: string, source: string, testCommand: string | undefined): string {
  const only = testCommand ? `the harness runs only the test command (\`${testCommand}\`)` : 'the harness runs only the test command';
  const what = kind === 'e2e' ? 'an end-to-end suite (it may need services this sandbox has no network for)' : `a ${kind} check`;
  return `${what} from ${source}: the agent did not run it and ${only}; CI runs it on the pushed commit`;
}
