import type { TestCase, TestCounts, TestOutcome } from '../../../events.js';
import { reportOf } from './report-util.js';
import type { Runner, RunnerName } from './types.js';

/** One TAP test point with the points of its subtest block (empty for a plain assertion). */
export interface TapPoint {
  name: string;
  ok: boolean;
  directive?: 'skip' | 'todo';
  children: TapPoint[];
}

const POINT = /^(not ok|ok)\b(?:\s+\d+)?(?:\s*-\s*|\s+)?(.*)$/;

function pointOf(line: string): Omit<TapPoint, 'children'> | undefined {
  const m = POINT.exec(line);
  if (!m) return undefined;
  let rest = m[2] ?? '';
  let directive: TapPoint['directive'];
  const d = /\s+#\s*(SKIP|TODO)\b.*$/i.exec(rest);
  if (d) {
    directive = (d[1] ?? '').toLowerCase() === 'skip' ? 'skip' : 'todo';
    rest = rest.slice(0, d.index);
  }
  rest = rest.replace(/\s+#\s*time=.*$/, '').replace(/\\#/g, '#');
  return { name: rest.trim(), ok: m[1] === 'ok', ...(directive ? { directive } : {}) };
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
    (pending[d - 1] ??= []).push({ name: headers[d - 1] ?? 'unclosed subtest', ok: false, children: orphans });
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
    const header = /^# Subtest(?::\s*(.*))?$/.exec(line);
    if (header) {
      closeUnclosed(pending, headers, depth);
      headed = true;
      open[depth] = true;
      if (header[1] !== undefined) headers[depth] = header[1].trim();
      continue;
    }
    const p = pointOf(line);
    if (!p) continue;
    sawTap = true;
    if (headed && !open[depth]) closeUnclosed(pending, headers, depth);
    open[depth] = false;
    while (pending.length <= depth + 1) pending.push([]);
    const children = pending[depth + 1] ?? [];
    pending.splice(depth + 1);
    (pending[depth] ??= []).push({ ...p, children });
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
