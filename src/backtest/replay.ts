/**
 * The replay model's script: an upstream change turned into the tool calls an agent would make.
 * A changed file is read, then edited hunk by hunk (Edit with the hunk's old and new lines) when every
 * hunk's old text is unique at its turn and the edits rebuild the upstream content exactly; otherwise it
 * is rewritten whole (Write after the Read). A new file is written; a removed one is removed through Bash.
 * Then the agent runs the tests once and says it is done. One engine for `proofpr backtest` and bench/real.
 */
import type { ReplayMessage } from './replay-server.js';

export interface FileChange {
  path: string;
  /** Content at the parent; undefined for a new file. */
  before?: string;
  /** Content at the fix; undefined for a removed file. */
  after?: string;
}

export type ToolStep = { name: 'Read' | 'Edit' | 'Write' | 'Bash'; input: Record<string, unknown> };

interface Hunk {
  oldText: string;
  newText: string;
}

/** Hunks of a line diff (LCS over lines, `context` lines around each change). */
export function lineHunks(before: string, after: string, context = 2): Hunk[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  // LCS table (files in this bench are small: a few thousand lines at most).
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  type Op = { k: ' ' | '-' | '+'; line: string };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ k: ' ', line: a[i]! });
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) ops.push({ k: '-', line: a[i++]! });
    else ops.push({ k: '+', line: b[j++]! });
  }
  while (i < n) ops.push({ k: '-', line: a[i++]! });
  while (j < m) ops.push({ k: '+', line: b[j++]! });
  const hunks: Hunk[] = [];
  let x = 0;
  let prevStop = 0;
  while (x < ops.length) {
    if (ops[x]!.k === ' ') {
      x++;
      continue;
    }
    let end = x;
    // One hunk spans changes separated by at most 2*context unchanged lines.
    for (;;) {
      while (end < ops.length && ops[end]!.k !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]!.k === ' ') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else break;
    }
    const start = Math.max(prevStop, x - context);
    const stop = Math.min(ops.length, end + context);
    const slice = ops.slice(start, stop);
    hunks.push({
      oldText: slice
        .filter((o) => o.k !== '+')
        .map((o) => o.line)
        .join('\n'),
      newText: slice
        .filter((o) => o.k !== '-')
        .map((o) => o.line)
        .join('\n'),
    });
    prevStop = stop;
    x = stop;
  }
  return hunks;
}

function count(haystack: string, needle: string): number {
  let c = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) c++;
  return c;
}

/** Edit inputs that turn `before` into `after`, or undefined when hunk edits cannot do it exactly. */
export function editsFor(path: string, before: string, after: string): Array<Record<string, unknown>> | undefined {
  const hunks = lineHunks(before, after);
  let text = before;
  const edits: Array<Record<string, unknown>> = [];
  for (const h of hunks) {
    if (h.oldText === '' || h.oldText === h.newText || count(text, h.oldText) !== 1) return undefined;
    text = text.replace(h.oldText, () => h.newText);
    edits.push({ file_path: path, old_string: h.oldText, new_string: h.newText });
  }
  return text === after ? edits : undefined;
}

/** Read input that reads the whole file in one call (Edit needs that): a long or large file with offset 1 and a limit covering every line. */
export function readWhole(path: string, content: string): Record<string, unknown> {
  const lines = content.split('\n').length;
  return lines > 2000 || Buffer.byteLength(content) > 256 * 1024 ? { file_path: path, offset: 1, limit: lines } : { file_path: path };
}

/** The tool calls replaying `changes`, then the agent's own test run. */
export function replaySteps(changes: readonly FileChange[], testCommand: string): ToolStep[] {
  const steps: ToolStep[] = [];
  for (const c of changes) {
    if (c.after === undefined) {
      steps.push({ name: 'Bash', input: { command: `rm -- ${JSON.stringify(c.path)}` } });
      continue;
    }
    if (c.before === undefined) {
      steps.push({ name: 'Write', input: { file_path: c.path, content: c.after } });
      continue;
    }
    steps.push({ name: 'Read', input: readWhole(c.path, c.before) });
    const edits = editsFor(c.path, c.before, c.after);
    if (edits) for (const e of edits) steps.push({ name: 'Edit', input: e });
    else steps.push({ name: 'Write', input: { file_path: c.path, content: c.after } });
  }
  steps.push({ name: 'Bash', input: { command: testCommand } });
  return steps;
}

/** A Messages API reply for request n (from 1): the n-th step, then plain text forever after. */
export function replayReply(steps: readonly ToolStep[], n: number, done: string): ReplayMessage {
  const s = steps[n - 1];
  if (!s) return { content: [{ type: 'text', text: done }], stop_reason: 'end_turn' };
  return {
    content: [{ type: 'tool_use', id: `toolu_${String(n).padStart(4, '0')}`, name: s.name, input: s.input }],
    stop_reason: 'tool_use',
  };
}

/**
 * The turn budget a replay needs: one request per step, the closing "done", the gates' returns to the
 * model and some slack. A long upstream change (a release commit of a hundred hunks) is more turns than a
 * user's default budget; the replay's turns are the replay's, not an agent's choice, so the pass sizes them.
 */
export function replayTurnBudget(steps: readonly ToolStep[], defaultBudget = 80): number {
  return Math.max(defaultBudget, steps.length + 20);
}
