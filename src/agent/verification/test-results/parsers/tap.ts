import { counts, type SummaryMatch } from './types.js';

const COMMENT = /^# (tests|pass|fail|skip|skipped|todo|cancelled|suites|ok)(?:\s+(\d+))?\s*$/;

/**
 * TAP (TAP 13/14 producers: `node --test` non-interactive, tape, node-tap): the closing comment block
 * `# tests N` / `# pass N` / `# fail N` (+ node's `# skipped` / `# todo` / `# cancelled`) when present;
 * otherwise the top-level `ok` / `not ok` lines counted against the plan `1..N` (`1..0` = no tests).
 */
export function parseTapSummary(lines: readonly string[]): SummaryMatch | undefined {
  return fromComments(lines) ?? fromTestPoints(lines);
}

function fromComments(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!/^# (pass|fail)\s+\d+\s*$/.test(lines[i] ?? '')) continue;
    // Walk up and down over the contiguous comment block that holds this line.
    let start = i;
    while (start > 0 && COMMENT.test(lines[start - 1] ?? '')) start--;
    let end = i;
    while (end + 1 < lines.length && /^# \w+/.test(lines[end + 1] ?? '')) end++;
    const v = new Map<string, number>();
    for (let j = start; j <= end; j++) {
      const m = COMMENT.exec(lines[j] ?? '');
      if (m && m[2] !== undefined) v.set(m[1] ?? '', Number(m[2]));
    }
    const passed = v.get('pass') ?? 0;
    const failed = (v.get('fail') ?? 0) + (v.get('cancelled') ?? 0);
    const skipped = (v.get('skipped') ?? v.get('skip') ?? 0) + (v.get('todo') ?? 0);
    return { counts: counts(passed, failed, skipped, v.get('tests') ?? passed + failed + skipped), line: end };
  }
  return undefined;
}

function fromTestPoints(lines: readonly string[]): SummaryMatch | undefined {
  let plan: number | undefined;
  let planLine = -1;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let last = -1;
  lines.forEach((line, i) => {
    const p = /^1\.\.(\d+)\b/.exec(line);
    if (p) {
      plan = Number(p[1]);
      planLine = i;
      return;
    }
    const t = /^(not ok|ok)\b(.*)$/.exec(line);
    if (!t) return;
    last = i;
    if (/#\s*(skip|todo)\b/i.test(t[2] ?? '')) skipped++;
    else if (t[1] === 'ok') passed++;
    else failed++;
  });
  if (plan === undefined) return undefined;
  return { counts: counts(passed, failed, skipped, Math.max(plan, passed + failed + skipped)), line: Math.max(planLine, last) };
}
