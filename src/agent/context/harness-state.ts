/**
 * The harness's own facts section, appended after every summary: gate status (failed gates with the log
 * of the latest failing test run), the ledger of checks (failing, or not re-run since the last edit, with
 * their log paths), failing-check logs, the edits since the last passing test run, the files edited, the
 * test command and the todo list (the plan). It comes from outside the conversation, so a summary can
 * never mark anything verified, and one that forgets a failure or is written in any shape loses nothing.
 */
import type { CheckRecord, CompactionState } from './types.js';

export const HARNESS_STATE_TAG = '<harness-state>';

const TODO_MARK = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;

export interface HarnessStateOptions {
  /** The repository's test command (config or detected): a passing run of it is what "verified since" counts from. */
  testCommand?: string;
}

/**
 * The facts section the harness appends to every summary: open failing checks (failed gates with the log
 * of the latest failing test run, failing commands with their logs), the edits since the last passing
 * test run, the files edited, the test command and the current plan. Never written by the model.
 */
export function renderHarnessState(state: CompactionState, opts: HarnessStateOptions = {}): string {
  const lines = [
    HARNESS_STATE_TAG,
    'Recorded by the harness outside the conversation. It is authoritative: where the summary disagrees, this wins.',
  ];
  lines.push(...gateLines(state, opts));
  lines.push(...checkLines(state));
  if (state.failingLogs.length > 0) {
    lines.push('Logs of failing checks (Read them before changing more code):');
    for (const p of state.failingLogs) lines.push(`- ${p}`);
  }
  lines.push(editsSinceLine(state, opts));
  lines.push(state.filesEdited.length > 0 ? `Files edited so far: ${state.filesEdited.join(', ')}` : 'Files edited so far: none');
  lines.push(
    opts.testCommand
      ? `Test command: \`${opts.testCommand}\` (the harness runs it on the final tree).`
      : 'Test command: none configured (the harness detects one).',
  );
  if (state.todos.length === 0) lines.push('Todo list: empty');
  else {
    lines.push('Todo list (the current plan):');
    for (const t of state.todos) lines.push(`${TODO_MARK[t.status]} ${t.content}`);
  }
  lines.push('</harness-state>');
  return lines.join('\n');
}

function gateLines(state: CompactionState, opts: HarnessStateOptions): string[] {
  if (state.gates.length === 0) return ['Gate status: not evaluated yet. Nothing is verified until the gates pass on the final tree.'];
  const failed = state.gates.filter((g) => !g.passed);
  const lines = [
    failed.length === 0
      ? 'Gate status at the last check: all passed (they are checked again when you stop).'
      : `Gate status: FAILING ${failed.map((g) => g.name).join(', ')}.`,
  ];
  const failingRun = [...(state.checks ?? [])].reverse().find((c) => isTestRun(c.command, opts.testCommand));
  const log =
    failingRun && failingRun.exitCode !== 0 && failingRun.outputPath ? ` (latest failing test run log: ${failingRun.outputPath})` : '';
  for (const g of state.gates)
    lines.push(
      `- ${g.advisory ? 'advisory (found, not blocking)' : g.passed ? 'passed' : 'FAILED'} ${g.name}: ${g.detail.replace(/\s+/g, ' ').trim()}${g.passed ? '' : log}`,
    );
  return lines;
}

/** Test runners by name: without a configured test command, a run of one of these is a test run. */
const TEST_RUN = /\b(?:test|tests|jest|vitest|mocha|ava|tap|pytest|tox|nox|unittest|rspec|phpunit|go\s+test|cargo\s+test)\b/;
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A run of the test command (when one is configured, only a command containing it), else of a test runner. */
export function isTestRun(command: string, testCommand?: string): boolean {
  return testCommand ? squash(command).includes(squash(testCommand)) : TEST_RUN.test(command);
}

/** The files changed after the last passing test run (all edited files when no test run passed yet). */
export function editsSinceLastPass(state: CompactionState, testCommand?: string): { passSeq?: number; files: string[] } {
  const pass = [...(state.checks ?? [])].reverse().find((c) => c.exitCode === 0 && isTestRun(c.command, testCommand));
  const since = pass?.seq ?? 0;
  const files = state.edits
    ? Object.entries(state.edits)
        .filter(([, seq]) => seq > since)
        .map(([path]) => path)
    : (state.lastEditSeq ?? 1) > since
      ? [...state.filesEdited]
      : [];
  return pass ? { passSeq: pass.seq, files } : { files };
}

function editsSinceLine(state: CompactionState, opts: HarnessStateOptions): string {
  const { passSeq, files } = editsSinceLastPass(state, opts.testCommand);
  const list = files.length > 0 ? files.join(', ') : 'none';
  return passSeq === undefined
    ? `Edits since the last passing test run: no test run has passed yet; unverified edits: ${list}`
    : `Edits since the last passing test run: ${list}`;
}

/** Commands that check the work (tests, linters, type checkers, builds): a stale pass of one matters. */
const CHECK =
  /\b(?:test|tests|jest|vitest|mocha|ava|tap|pytest|tox|nox|unittest|lint|eslint|ruff|flake8|mypy|pyright|tsc|typecheck|check|build|cargo|go\s+(?:test|vet|build)|make|gradle|mvn|rspec|phpunit)\b/;
const MAX_CHECKS = 12;

/**
 * The ledger's facts about checks, by command (its latest run): failing ones with their log paths,
 * and passing checks that ran before the last edit (not re-run since, so not evidence any more).
 */
export function checkLines(state: CompactionState): string[] {
  const latest = new Map<string, CheckRecord>();
  for (const c of state.checks ?? []) {
    latest.delete(c.command);
    latest.set(c.command, c);
  }
  const edit = state.lastEditSeq ?? 0;
  const failing: string[] = [];
  const stale: string[] = [];
  const fresh: string[] = [];
  for (const c of [...latest.values()].reverse()) {
    const cmd = `\`${c.command.replace(/\s+/g, ' ').trim().slice(0, 200)}\``;
    const log = c.outputPath ? ` (log: ${c.outputPath})` : '';
    if (c.exitCode !== 0)
      failing.push(
        `- FAILING ${cmd}: ${c.timedOut ? 'timed out' : c.exitCode === null ? 'killed' : `exit ${c.exitCode}`}${c.seq < edit ? ', and files changed since' : ''}${log}`,
      );
    else if (!CHECK.test(c.command)) continue;
    else if (c.seq < edit) stale.push(`- NOT RE-RUN since the last edit ${cmd}: it passed before files changed${log}`);
    else fresh.push(`- passed after the last edit ${cmd}${log}`);
  }
  const all = [...failing, ...stale, ...fresh];
  if (all.length === 0)
    return [(state.checks ?? []).length ? 'Checks run: none failing, none of them a test or check command.' : 'Checks run: none yet.'];
  const shown = all.slice(0, MAX_CHECKS);
  if (all.length > MAX_CHECKS) shown.push(`- … and ${all.length - MAX_CHECKS} more commands`);
  return ['Checks from the harness ledger (latest run of each command):', ...shown];
}
