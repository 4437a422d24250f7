/** Rust tests inline in a shipped source (`#[cfg(test)]` items), judged as a test file's lines. */
import type { DiffLine, FileDiff } from '../changes/worktree-diff.js';
import { cfgTestRanges } from '../shipped/rust-tests.js';
import type { IntegrityResult } from './classify.js';
import type { Finding } from './compare.js';

/** 1-based line ranges of the `#[cfg(test)]` items of a Rust file (shipped/rust-tests.ts finds them by Rust's lexical rules). */
function testLines(text: string | undefined): Array<[number, number]> {
  if (text === undefined) return [];
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  return cfgTestRanges(text).map((r) => [lineAt(r.start), lineAt(Math.max(r.start, r.end - 1))]);
}

/**
 * The part of a Rust source file's diff inside its inline tests (`#[cfg(test)] mod tests`, any
 * test-only item): those lines are a test file's lines, judged by the same rules (an expected literal
 * changed there is a changed assertion, `#[ignore]` or `#[should_panic]` added is a skip); undefined when
 * the change touches none.
 */
export function inlineRustTests(
  f: FileDiff,
  base: string | undefined,
  now: string | undefined,
  res: Pick<IntegrityResult, 'changedTestFiles' | 'unparsedTests' | 'findings'>,
): void {
  const inside = (ranges: Array<[number, number]>) => (l: DiffLine) => ranges.some(([a, b]) => l.line >= a && l.line <= b);
  const removed = f.removed.filter(inside(testLines(base)));
  const added = f.added.filter(inside(testLines(now)));
  if (!removed.length && !added.length) return;
  res.changedTestFiles.push(f.path);
  res.unparsedTests.push({ ...f, removed, added });
  res.findings.push(...expectedFailures(f.path, added, base ?? '', now ?? ''));
}

/**
 * `#[should_panic]` added to a test the base already had: the test now passes when the code panics, an
 * expected failure, never a pass (a new test may say it: that is what it checks).
 */
function expectedFailures(file: string, added: readonly DiffLine[], base: string, now: string): Finding[] {
  const lines = now.split('\n');
  const out: Finding[] = [];
  for (const l of added) {
    if (!/#\[should_panic\b/.test(l.text)) continue;
    const fn = lines
      .slice(l.line)
      .map((x) => /\bfn\s+(\w+)/.exec(x)?.[1])
      .find((x) => x !== undefined);
    if (fn && new RegExp(`\\bfn\\s+${fn}\\b`).test(base))
      out.push({
        kind: 'marker',
        file,
        start: l.line,
        end: l.line,
        text: l.text,
        test: fn,
        what: `\`should_panic\` marker added to test "${fn}" (an expected failure is never a pass)`,
      });
  }
  return out;
}
