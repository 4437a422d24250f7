import type { TestCase, TestOutcome } from '../../../events.js';
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
 * Reads TAP 13/14 into a tree: indentation (4 spaces per level) nests subtests, and a point closes
 * the block of deeper points before it; a `# Subtest` line drops deeper points no point closed. YAML diagnostics (`---` … `...`) and other lines are skipped,
 * so text inside a failure's diagnostics never reads as a result.
 */
export function tapTree(text: string): { points: TapPoint[]; sawTap: boolean } {
  const root: TapPoint[] = [];
  // pending[d]: points seen at depth d that no parent point has claimed yet.
  const pending: TapPoint[][] = [root];
  let yamlIndent: number | undefined;
  let sawTap = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (yamlIndent !== undefined) {
      if (line === '...' && indent <= yamlIndent + 2) yamlIndent = undefined;
      continue;
    }
    if (line === '---') {
      yamlIndent = indent;
      continue;
    }
    if (/^TAP version \d+/.test(line) || /^1\.\.\d+/.test(line)) sawTap = true;
    // A block opening at this depth: points still pending deeper belong to a block that never closed (its
    // process was killed, as node-tap does on a timeout); no later point may claim them as its subtests.
    if (/^# Subtest\b/.test(line)) pending.splice(Math.floor(indent / 4) + 1);
    const p = pointOf(line);
    if (!p) continue;
    sawTap = true;
    const depth = Math.floor(indent / 4);
    while (pending.length <= depth + 1) pending.push([]);
    const children = pending[depth + 1] ?? [];
    pending[depth + 1] = [];
    for (let d = depth + 2; d < pending.length; d++) pending[d] = [];
    const point: TapPoint = { ...p, children };
    (pending[depth] ??= []).push(point);
  }
  return { points: pending[0] ?? root, sawTap };
}

export const tapOutcome = (p: TapPoint): TestOutcome => (p.directive ? 'skipped' : p.ok ? 'passed' : 'failed');

/**
 * A runner whose report is TAP (the harness sends its stdout to the report file), called as the program
 * `bin`; `casesOf` says which of the top-level points and their subtests are tests.
 */
export function tapRunner(name: RunnerName, bin: string, casesOf: (points: TapPoint[]) => TestCase[]): Runner {
  return {
    name,
    source: 'tap',
    match: (w) => (w[0]?.split('/').pop() === bin ? 1 : undefined),
    parse(text) {
      const { points, sawTap } = tapTree(text);
      return sawTap ? reportOf(casesOf(points)) : undefined;
    },
  };
}
