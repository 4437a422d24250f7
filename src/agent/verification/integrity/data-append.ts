/**
 * Whether a statement outside the tests changed only by gaining whole data elements: a table of cases
 * (`const tests = [{ input, out }, …]`, a Python dict of fixtures) with new rows. Every base line is
 * still there, in order and unchanged, and each run of inserted lines is literal data only (strings,
 * numbers, true/false/null/None, keys, brackets, commas, comments) that opens a bracket and balances
 * it: a new `{…}` / `[…]` / `(…)` element or a `key: {…}` entry. A bare `skip: true` inserted into an
 * existing row is not an element and does not pass. More rows add cases; none is weakened.
 */

const STRING = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$\n]|\\.)*`/g;
const COMMENT = /(?:\/\/|#).*$/;
const SCALAR = /\b(?:-?\d[\w.]*|true|false|null|undefined|None|True|False)\b/g;
const KEY = /\b[A-Za-z_$][\w$]*\s*:/g;

/** The line with literals, keys and comments removed; data lines leave only brackets, commas, colons. */
function skeleton(line: string): string {
  return line
    .replace(STRING, '""')
    .replace(COMMENT, '')
    .replace(/""\s*:/g, ':')
    .replace(KEY, ':')
    .replace(SCALAR, '')
    .replace(/""/g, '')
    .replace(/\s+/g, '');
}

const isDataLine = (line: string): boolean => /^[{}[\](),:]*$/.test(skeleton(line));

function balanced(lines: readonly string[]): boolean {
  let depth = 0;
  let opened = false;
  for (const l of lines) {
    for (const ch of skeleton(l)) {
      if (ch === '{' || ch === '[' || ch === '(') {
        depth++;
        opened = true;
      } else if (ch === '}' || ch === ']' || ch === ')') {
        depth--;
        if (depth < 0) return false;
      }
    }
  }
  return opened && depth === 0;
}

/** Lines of `after` not matched by `before` (line-level LCS), as runs of consecutive inserted lines; undefined when a base line is gone. */
function insertedRuns(before: readonly string[], after: readonly string[]): string[][] | undefined {
  const n = before.length;
  const m = after.length;
  if (n * m > 4_000_000) return undefined;
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) dp[i]![j] = before[i] === after[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  if (dp[0]![0] !== n) return undefined;
  const runs: string[][] = [];
  let i = 0;
  let run: string[] = [];
  for (let j = 0; j < m; j++) {
    if (i < n && before[i] === after[j] && dp[i]![j] === dp[i + 1]![j + 1]! + 1) {
      if (run.length) runs.push(run);
      run = [];
      i++;
    } else run.push(after[j]!);
  }
  if (run.length) runs.push(run);
  return runs;
}

export function onlyDataAppended(before: string, after: string): boolean {
  // A trailing comma added to the last base row is part of appending one.
  const norm = (s: string) => s.split('\n').map((l) => l.replace(/,\s*$/, '').trimEnd());
  const runs = insertedRuns(norm(before), norm(after));
  if (!runs || runs.length === 0) return false;
  return runs.every((r) => {
    const code = r.filter((l) => l.trim() !== '' && !/^\s*(?:\/\/|#)/.test(l));
    return code.length > 0 && code.every(isDataLine) && balanced(code);
  });
}
