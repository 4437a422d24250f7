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
   * The subtest block tap-parser holds this point against, when it closes one holding points: the name its
   * `# Subtest: name` line gave it ('' for a bare `# Subtest` line or none), how many points it holds, and
   * whether it passed as its parser reads it (every point passed or carries a directive and every block
   * under it passed, as many points as its plan `1..N` says); `passedAll`: so did every other block this
   * point closed (a buffered point closes two), which its own block's outcome depends on.
   */
  block?: { name: string; count: number; ok: boolean; passedAll: boolean };
  /** Its line ends with `{`: tap-parser reads the deeper points that follow it as its (buffered) block. */
  buffered?: true;
  /** Its number in its block (`ok 3 - …`), when the line gives one. */
  id?: number;
  /** Not a point of the stream: made up for a block no point closed (closeUnclosed). */
  unclosed?: true;
}

const POINT = /^(not ok|ok)\b(?:\s+\d+)?(?:\s*-\s*|\s+)?(.*)$/;
/** tap-parser's test point line (line-type.js), on a line without its end of line. */
const TAP_POINT = /^(not )?ok(?: ([0-9]+))?(?:(?: -)?( .*?))?(\{?)$/;
const OPEN_BRACE_EOL = /\{\s*$/;

/** tap-parser's parseDirective: the text after a point's `#` is a skip, a todo, a time, or not a directive. */
function directiveOf(text: string): 'skip' | 'todo' | 'time' | undefined {
  const t = text
    .replace(OPEN_BRACE_EOL, '')
    .trim()
    .replace(/^duration_ms ([0-9.]+)$/, 'time=$1ms');
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
function tapReading(line: string): { tapName: string; directive?: 'skip' | 'todo'; buffered?: true; id?: number } {
  const m = TAP_POINT.exec(line);
  const rest = (m?.[3] ?? '').replace(/\\\\/g, '\n');
  const [head, ...tail] = rest.split(/(?<=\s|^)(?<!\\)#/g);
  let name = (head ?? '').replace(/\\#/g, '#').replace(/\n/g, '\\');
  const after = tail.join('#').replace(/\\#/g, '#').replace(/\n/g, '\\');
  const directive = directiveOf(after);
  if (!directive) name += (after ? `#${after}` : '') + (m?.[4] ?? '');
  const tapName = name.replace(OPEN_BRACE_EOL, '').trim();
  const buffered = m?.[4] === '{' || OPEN_BRACE_EOL.test(name);
  const id = m?.[2] === undefined ? {} : { id: Number(m[2]) };
  return { tapName, ...(directive === 'skip' || directive === 'todo' ? { directive } : {}), ...(buffered ? { buffered } : {}), ...id };
}

function pointOf(line: string): Omit<TapPoint, 'children'> | undefined {
  const m = POINT.exec(line);
  if (!m) return undefined;
  const { tapName, ...read } = tapReading(line);
  let rest = m[2] ?? '';
  const d = /\s+#\s*(SKIP|TODO)\b.*$/i.exec(rest);
  if (d) rest = rest.slice(0, d.index);
  rest = rest.replace(/\s+#\s*time=.*$/, '').replace(/\\#/g, '#');
  return { name: rest.trim(), ok: m[1] === 'ok', tapName, ...read };
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

/** What tapTree holds while it reads, per depth d. */
interface TreeState {
  /** Points seen at depth d that no parent point has claimed yet. */
  pending: TapPoint[][];
  /** The name of the last `# Subtest: name` at depth d (closeUnclosed names blocks by it). */
  headers: Array<string | undefined>;
  /** A block opened by a `# Subtest` line at depth d and not closed yet. */
  open: boolean[];
  /** The block's name as tap-parser reads the last `# Subtest` line at depth d (`''` for a bare one). */
  names: string[];
  /** The last plan line at depth d (`start..end`). */
  plans: Array<{ start: number; end: number } | undefined>;
  /**
   * The last point at depth d ended with `{` and no plan or point at depth d came after it: `waiting`, or
   * `opened` once a deeper line came (tap-parser opens that point's buffered block on any such line).
   */
  buffered: Array<'waiting' | 'opened' | undefined>;
  headed: boolean;
}

/**
 * A block of `children` under its plan, read as tap-parser reads it: it passed when every point passed or
 * carries a directive, it holds as many points as its plan says, and no point's number repeats or falls
 * outside the plan.
 */
function blockOf(name: string, children: readonly TapPoint[], plan: TreeState['plans'][number]): NonNullable<TapPoint['block']> {
  const ids = children.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  const planned = plan !== undefined && children.length === Math.max(0, plan.end - plan.start + 1);
  const numbered = new Set(ids).size === ids.length && ids.every((id) => plan !== undefined && id >= plan.start && id <= plan.end);
  const ok = children.every((c) => (c.ok || c.directive) && c.block?.passedAll !== false) && planned && numbered;
  return { name, count: children.length, ok, passedAll: ok };
}

/**
 * The deeper lines after a point whose line ends with `{`, when any came before the next point or plan at
 * its depth: tap-parser reads them as that point's buffered subtest block and holds the point against
 * that block (tap prints a subtest that follows such a name without its `# Subtest` line). Their points
 * join that point, and the point that ends them closes no block.
 */
function claimBuffered(st: TreeState, depth: number): boolean {
  const deeper = st.pending[depth + 1] ?? [];
  const before = st.pending[depth]?.at(-1);
  if (st.buffered[depth] !== 'opened' || !before) return false;
  before.children.push(...deeper);
  const block = blockOf(before.tapName, deeper, st.plans[depth + 1]);
  before.block = { ...block, passedAll: block.ok && before.block?.passedAll !== false };
  st.pending.splice(depth + 1);
  st.plans.splice(depth + 1);
  return true;
}

/** One point at `depth`: it closes the block of deeper points before it (unless a buffered point claims them). */
function addPoint(st: TreeState, depth: number, p: Omit<TapPoint, 'children'>): void {
  const claimed = claimBuffered(st, depth);
  if (!claimed && st.headed && !st.open[depth]) closeUnclosed(st.pending, st.headers, depth);
  const children = claimed ? [] : (st.pending[depth + 1] ?? []);
  const name = (st.open[depth] && st.names[depth]) || '';
  const plan = st.plans[depth + 1];
  const block = children.length > 0 || plan !== undefined ? { block: blockOf(name, children, plan) } : {};
  st.open[depth] = false;
  st.buffered[depth] = p.buffered ? 'waiting' : undefined;
  st.pending.splice(depth + 1);
  st.plans.splice(depth + 1);
  (st.pending[depth] ??= []).push({ ...p, children, ...block });
}

/**
 * Reads TAP 13/14 into a tree: indentation (4 spaces per level) nests subtests, and a point closes
 * the block of deeper points before it. When the stream opens blocks with `# Subtest` lines, a point
 * closes only the block opened at its depth; deeper points left over belong to a block that never
 * closed (closeUnclosed). YAML diagnostics (`---` … `...`) and other lines are skipped, so text
 * inside a failure's diagnostics never reads as a result.
 */
export function tapTree(text: string): { points: TapPoint[]; sawTap: boolean } {
  const st: TreeState = { pending: [[]], headers: [], open: [], names: [], plans: [], buffered: [], headed: false };
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
    if (line) st.buffered.forEach((b, d) => (st.buffered[d] = b && d < depth ? 'opened' : b));
    if (/^TAP version \d+/.test(line) || /^1\.\.\d+/.test(line)) sawTap = true;
    const plan = /^(\d+)\.\.(\d+)(?:\s+#.*)?$/.exec(line);
    if (plan) {
      claimBuffered(st, depth);
      st.plans[depth] = { start: Number(plan[1]), end: Number(plan[2]) };
      st.buffered[depth] = undefined;
    }
    const header = /^# Subtest(?::\s*(.*))?$/.exec(line);
    if (header) {
      if (!st.buffered[depth]) closeUnclosed(st.pending, st.headers, depth);
      st.headed = true;
      st.open[depth] = true;
      if (header[1] !== undefined) st.headers[depth] = header[1].trim();
      st.names[depth] = /^# Subtest: (.*)$/.exec(line)?.[1]?.trim() ?? '';
      continue;
    }
    const p = pointOf(line);
    if (!p) continue;
    sawTap = true;
    addPoint(st, depth, p);
  }
  // Without `# Subtest` lines, points no parent claimed are dropped, as before.
  if (st.headed) closeUnclosed(st.pending, st.headers, 0);
  return { points: st.pending[0] ?? [], sawTap };
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
