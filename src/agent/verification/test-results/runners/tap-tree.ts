import type { TestCase, TestCounts, TestOutcome } from '../../../events.js';
import { reportOf } from './report-util.js';
import type { Runner, RunnerName } from './types.js';

/** One TAP test point with the points of its subtest block (empty for a plain assertion). */
export interface TapPoint {
  name: string;
  ok: boolean;
  directive?: 'skip' | 'todo';
  children: TapPoint[];
  /** The name as TAP parsers read it (tap-parser: `\\` → `\`, `\#` → `#`, a trailing `{` dropped). */
  tapName: string;
  /**
   * The subtest block this point closes, when it closes one holding points: the name its `# Subtest: name`
   * line gave it ('' for a bare `# Subtest` line or none) and the number of points its plan (`1..N`) says.
   */
  block?: { name: string; plan?: number };
  /** Not a point of the stream: made up for a block no point closed (closeUnclosed). */
  unclosed?: true;
}

const POINT = /^(not ok|ok)\b(?:\s+\d+)?(?:\s*-\s*|\s+)?(.*)$/;
/** tap-parser's test point line (line-type.js), on a line without its end of line. */
const TAP_POINT = /^(not )?ok(?: ([0-9]+))?(?:(?: -)?( .*?))?(\{?)$/;
const OPEN_BRACE_EOL = /\{\s*$/;

/** tap-parser's parseDirective: the text after a point's `#` is a skip, a todo, a time, or not a directive. */
function directiveOf(text: string): 'skip' | 'todo' | 'time' | undefined {
  const t = text.replace(OPEN_BRACE_EOL, '').trim().replace(/^duration_ms ([0-9.]+)$/, 'time=$1ms');
  if (!t) return undefined;
  if (/^time=(?:[1-9][0-9]*|0)(?:\.[0-9]+)?(?:ms|s)$/i.test(t)) return 'time';
  const d = /^(todo|skip)(?:\S*)\b/i.exec(t);
  return d ? ((d[1] ?? '').toLowerCase() as 'skip' | 'todo') : undefined;
}

/**
 * A point's name and directive as tap-parser reads them (result.js), which is what node-tap counts by:
 * escaped backslashes and `#` unescaped, the directive after the first `#` that follows a space and is not
 * escaped, a trailing `{` (a buffered subtest's opening) dropped.
 */
function tapReading(line: string): { tapName: string; directive?: 'skip' | 'todo' } {
  const m = TAP_POINT.exec(line);
  const rest = (m?.[3] ?? '').replace(/\\\\/g, '\n');
  const [head, ...tail] = rest.split(/(?<=\s|^)(?<!\\)#/g);
  let name = (head ?? '').replace(/\\#/g, '#').replace(/\n/g, '\\');
  const after = tail.join('#').replace(/\\#/g, '#').replace(/\n/g, '\\');
  const directive = directiveOf(after);
  if (!directive) name += (after ? `#${after}` : '') + (m?.[4] ?? '');
  const tapName = name.replace(OPEN_BRACE_EOL, '').trim();
  return directive === 'skip' || directive === 'todo' ? { tapName, directive } : { tapName };
}

function pointOf(line: string): Omit<TapPoint, 'children'> | undefined {
  const m = POINT.exec(line);
  if (!m) return undefined;
  const { tapName, directive } = tapReading(line);
  let rest = m[2] ?? '';
  const d = /\s+#\s*(SKIP|TODO)\b.*$/i.exec(rest);
  if (d) rest = rest.slice(0, d.index);
  rest = rest.replace(/\s+#\s*time=.*$/, '').replace(/\\#/g, '#');
  return { name: rest.trim(), ok: m[1] === 'ok', tapName, ...(directive ? { directive } : {}) };
}

/**
 * The blocks opened by `# Subtest` lines that no point closed (the producer was killed mid-block, as
 * node-tap kills a file on its timeout), deepest first down to depth `to`: each becomes a failing point
 * named by its `# Subtest: name` line holding the points it printed, so they stay under their own file
 * and no later point claims them.
 */
function closeUnclosed(pending: TapPoint[][], headers: Array<string | undefined>, to: number): void {
  for (let d = pending.length - 1; d > to; d--) {
    const orphans = pending[d] ?? [];
    pending[d] = [];
    if (orphans.length === 0) continue;
    const name = headers[d - 1] ?? 'unclosed subtest';
    (pending[d - 1] ??= []).push({ name, tapName: name, ok: false, children: orphans, unclosed: true });
  }
  pending.splice(to + 1);
}

/**
 * Reads TAP 13/14 into a tree: indentation (4 spaces per level) nests subtests, and a point closes
 * the block of deeper points before it. When the stream opens blocks with `# Subtest` lines, a point
 * closes only the block opened at its depth; deeper points left over belong to a block that never
 * closed (closeUnclosed). YAML diagnostics (`---` … `...`) and other lines are skipped, so text
 * inside a failure's diagnostics never reads as a result.
 */
export function tapTree(text: string): { points: TapPoint[]; sawTap: boolean } {
  // pending[d]: points seen at depth d that no parent point has claimed yet.
  const pending: TapPoint[][] = [[]];
  // headers[d]: the name of the last `# Subtest: name` at depth d; open[d]: a block opened there and not closed yet.
  const headers: Array<string | undefined> = [];
  const open: boolean[] = [];
  // names[d]: the block's name as tap-parser reads the last `# Subtest` line at depth d; plans[d]: the plan at depth d.
  const names: string[] = [];
  const plans: Array<number | undefined> = [];
  let headed = false;
  let yamlIndent: number | undefined;
  let sawTap = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    const depth = Math.floor(indent / 4);
    if (yamlIndent !== undefined) {
      if (line === '...' && indent <= yamlIndent + 2) yamlIndent = undefined;
      continue;
    }
    if (line === '---') {
      yamlIndent = indent;
      continue;
    }
    if (/^TAP version \d+/.test(line) || /^1\.\.\d+/.test(line)) sawTap = true;
    const plan = /^(\d+)\.\.(\d+)(?:\s+#.*)?$/.exec(line);
    if (plan) plans[depth] = Math.max(0, Number(plan[2]) - Number(plan[1]) + 1);
    const header = /^# Subtest(?::\s*(.*))?$/.exec(line);
    if (header) {
      closeUnclosed(pending, headers, depth);
      headed = true;
      open[depth] = true;
      if (header[1] !== undefined) headers[depth] = header[1].trim();
      names[depth] = /^# Subtest: (.*)$/.exec(line)?.[1]?.trim() ?? '';
      continue;
    }
    const p = pointOf(line);
    if (!p) continue;
    sawTap = true;
    if (headed && !open[depth]) closeUnclosed(pending, headers, depth);
    while (pending.length <= depth + 1) pending.push([]);
    const children = pending[depth + 1] ?? [];
    const planned = plans[depth + 1];
    const block = { name: (open[depth] && names[depth]) || '', ...(planned === undefined ? {} : { plan: planned }) };
    open[depth] = false;
    pending.splice(depth + 1);
    plans.splice(depth + 1);
    (pending[depth] ??= []).push({ ...p, children, ...(children.length > 0 ? { block } : {}) });
  }
  // Without `# Subtest` lines, points no parent claimed are dropped, as before.
  if (headed) closeUnclosed(pending, headers, 0);
  return { points: pending[0] ?? [], sawTap };
}

export const tapOutcome = (p: TapPoint): TestOutcome => (p.directive ? 'skipped' : p.ok ? 'passed' : 'failed');

/**
 * A runner whose report is TAP (the harness sends its stdout to the report file), called as the program
 * `bin`; `casesOf` says which of the top-level points and their subtests are tests, and `countsOf`, when
 * given, what the runner itself counts (else the counts are the tests').
 */
export function tapRunner(
  name: RunnerName,
  bin: string,
  casesOf: (points: TapPoint[]) => TestCase[],
  countsOf?: (points: TapPoint[]) => TestCounts,
): Runner {
  return {
    name,
    source: 'tap',
    match: (w) => (w[0]?.split('/').pop() === bin ? 1 : undefined),
    parse(text) {
      const { points, sawTap } = tapTree(text);
      if (!sawTap) return undefined;
      const report = reportOf(casesOf(points));
      return countsOf ? { ...report, counts: countsOf(points) } : report;
    },
  };
}
