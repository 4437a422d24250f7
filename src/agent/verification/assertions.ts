import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { isAssertionLine, isSkipLine } from './assertion-patterns.js';
import { isEarlyReturn } from './early-return.js';
import { gateDiff } from './gate-diff.js';
import { isTestFile } from './test-files.js';
import type { DiffLine, FileDiff } from './worktree-diff.js';

export interface LineRef {
  file: string;
  line: number;
  text: string;
}

export interface AssertionsResult {
  passed: boolean;
  /** One line per problem ("file:line: …"), or what was checked when it passed. */
  detail: string;
  /** Assertion lines removed or changed (base-file line numbers): their exact text is not in the file any more. */
  removed: LineRef[];
  /** Skip/only/todo markers added (new-file line numbers). */
  skipsAdded: LineRef[];
  /** Bare `return`s added first in a test body (new-file line numbers). */
  earlyReturns?: LineRef[];
  deletedTestFiles: string[];
  /** Test files added or changed and still present (what red→green runs against the base). */
  changedTestFiles: string[];
  /** .gitattributes files added, changed or deleted (they change how git compares files: the gate fails). */
  attributesChanged?: string[];
}

const clip = (s: string): string => {
  const t = s.trim();
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
};

const MAX_LISTED = 5;

/**
 * The assertions-kept gate's facts: the diff of test files between `baseSha` and the worktree now
 * (untracked files included; `diffs` from gateDiff when the caller already has it). In a test file
 * that exists at the base, every removed assertion line whose exact (trimmed) text is not added back
 * in the same file fails: a changed assertion is a removed one, only brand-new assertion lines are
 * free, and moving one within the file is fine. Added skip/only/todo markers (not moved ones), bare
 * `return`s first in a test body, deleted test files and any .gitattributes change fail too.
 */
export async function assertionsKept(root: string, baseSha: string, diffs?: readonly FileDiff[]): Promise<AssertionsResult> {
  let all: readonly FileDiff[];
  try {
    all = diffs ?? (await gateDiff(root, baseSha));
  } catch (e) {
    const msg = (e as Error).message;
    return { passed: false, detail: `could not diff the test files against ${baseSha.slice(0, 12)}: ${msg}`, removed: [], skipsAdded: [], deletedTestFiles: [], changedTestFiles: [] };
  }
  const removed: LineRef[] = [];
  const skipsAdded: LineRef[] = [];
  const earlyReturns: LineRef[] = [];
  const deletedTestFiles: string[] = [];
  const changedTestFiles: string[] = [];
  const attributesChanged: string[] = [];
  const problems: string[] = [];
  for (const f of all) {
    if ([f.path, f.oldPath].some((p) => p !== undefined && posix.basename(p) === '.gitattributes')) {
      attributesChanged.push(f.path);
      problems.push(`${f.path}: .gitattributes ${f.status === 'added' ? 'added' : f.status === 'deleted' ? 'deleted' : 'changed'}: it decides how git compares and stages files, so the test diff can't be trusted; revert it`);
      continue;
    }
    if (!isTestFile(f.path) && !(f.oldPath !== undefined && isTestFile(f.oldPath))) continue;
    if (f.status === 'deleted' || !isTestFile(f.path)) {
      // Deleted, or moved out of the test folders (which takes it out of the run just the same).
      const gone = f.oldPath ?? f.path;
      deletedTestFiles.push(gone);
      problems.push(`${gone}: test file deleted${f.status === 'deleted' ? '' : ` (moved to ${f.path})`}`);
      continue;
    }
    changedTestFiles.push(f.path);
    if (f.status !== 'added') {
      const lost = unmatched(f.removed.filter((l) => isAssertionLine(l.text)), f.added).map((l) => ref(f.oldPath ?? f.path, l));
      if (lost.length) {
        removed.push(...lost);
        problems.push(`${f.path}: ${lost.length} assertion(s) removed or changed (an existing assertion must stay exactly as it was; only new ones may be added): ${listed(lost)}`);
      }
    }
    const skips = unmatched(f.added.filter((l) => isSkipLine(l.text)), f.removed).map((l) => ref(f.path, l));
    skipsAdded.push(...skips);
    problems.push(...skips.map((r) => `${r.file}:${r.line}: skip/only marker added: \`${r.text}\``));
    const returns = await earlyReturnsIn(root, f);
    earlyReturns.push(...returns);
    problems.push(...returns.map((r) => `${r.file}:${r.line}: \`${r.text}\` added first in a test body: the test's assertions never run`));
  }
  const detail = problems.length
    ? problems.join('\n')
    : changedTestFiles.length
      ? `${changedTestFiles.length} test file(s) changed; no assertion removed or changed, no skip added`
      : 'no test file changed';
  return { passed: problems.length === 0, detail, removed, skipsAdded, earlyReturns, deletedTestFiles, changedTestFiles, attributesChanged };
}

/** The lines of `lines` whose trimmed text is not among `others` (each line of `others` matches once). */
function unmatched(lines: readonly DiffLine[], others: readonly DiffLine[]): DiffLine[] {
  const pool = new Map<string, number>();
  for (const o of others) pool.set(o.text.trim(), (pool.get(o.text.trim()) ?? 0) + 1);
  return lines.filter((l) => {
    const n = pool.get(l.text.trim()) ?? 0;
    if (n > 0) pool.set(l.text.trim(), n - 1);
    return n === 0;
  });
}

async function earlyReturnsIn(root: string, f: FileDiff): Promise<LineRef[]> {
  const candidates = f.added.filter((l) => /^\s*return\b/.test(l.text));
  if (candidates.length === 0) return [];
  const text = await readFile(join(root, f.path), 'utf8').catch(() => '');
  const lines = text.split(/\r?\n/);
  return candidates.filter((l) => isEarlyReturn(lines, l.line)).map((l) => ref(f.path, l));
}

function listed(refs: readonly LineRef[]): string {
  const shown = refs.slice(0, MAX_LISTED).map((r) => `${r.file}:${r.line}: \`${r.text}\``);
  return shown.join('; ') + (refs.length > MAX_LISTED ? `; and ${refs.length - MAX_LISTED} more` : '');
}

function ref(file: string, l: DiffLine): LineRef {
  return { file, line: l.line, text: clip(l.text) };
}
