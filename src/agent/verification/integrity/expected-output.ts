import type { DiffLine, FileDiff } from '../changes/worktree-diff.js';
import type { Finding } from './compare.js';

/**
 * Tests whose expectation is text the runner compares, not an assertion call: Go's example tests (an
 * `Example…` function's `// Output:` / `// Unordered output:` comment, through the function's end) and
 * Python's doctests (a `>>>` line, its `...` continuations and the expected output up to the next blank
 * line or prompt). A line of such an expectation the base had and the change removed or rewrote is a
 * changed expectation, as a changed assertion is.
 */

/** 1-based numbers of the lines of Go examples' expected output (`// Output:` through the closing `}`). */
export function goExampleOutputLines(text: string): Set<number> {
  const lines = text.split('\n');
  const out = new Set<number>();
  let inExample = false;
  let inOutput = false;
  lines.forEach((l, i) => {
    if (/^func\s+Example\w*\s*\(\s*\)/.test(l)) inExample = true;
    else if (/^func\s/.test(l)) inExample = false;
    if (inExample && /^\s*\/\/\s*(?:unordered output|output):/i.test(l)) inOutput = true;
    if (inOutput && /^\s*\/\//.test(l)) out.add(i + 1);
    else if (inOutput) inOutput = false;
    if (/^}/.test(l)) inExample = false;
  });
  return out;
}

/** 1-based numbers of the lines of Python doctests: prompts, continuations and expected output. */
export function doctestLines(text: string): Set<number> {
  const lines = text.split('\n');
  const out = new Set<number>();
  let inExample = false;
  lines.forEach((l, i) => {
    const t = l.trim();
    if (t.startsWith('>>>')) inExample = true;
    else if (t === '' || t === '"""' || t === "'''") inExample = false;
    if (inExample) out.add(i + 1);
  });
  return out;
}

/** Lines of the base's expectations (`lines(base)`) the change removed and did not put back verbatim. */
export function expectedOutputChanged(
  f: FileDiff,
  base: string | undefined,
  what: string,
  lines: (text: string) => Set<number>,
): Finding[] {
  if (base === undefined) return [];
  const inBase = lines(base);
  const kept = new Map<string, number>();
  for (const a of f.added) kept.set(a.text.trim(), (kept.get(a.text.trim()) ?? 0) + 1);
  const lost: DiffLine[] = [];
  for (const r of f.removed) {
    if (!inBase.has(r.line)) continue;
    const n = kept.get(r.text.trim()) ?? 0;
    if (n > 0) kept.set(r.text.trim(), n - 1);
    else lost.push(r);
  }
  const [first] = lost;
  const last = lost[lost.length - 1];
  if (!first || !last) return [];
  return [
    {
      kind: 'assertion-removed',
      file: f.oldPath ?? f.path,
      start: first.line,
      end: last.line,
      text: lost.map((l) => l.text).join('\n'),
      what: `${what} changed or removed (the text the runner compares is an expectation: it must stay as it was)`,
      base: true,
    },
  ];
}
