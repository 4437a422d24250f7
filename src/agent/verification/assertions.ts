import { isAssertionLine, isSkipLine } from './assertion-patterns.js';
import { isTestFile } from './test-files.js';
import { worktreeDiff, type DiffLine, type FileDiff } from './worktree-diff.js';

export interface LineRef {
  file: string;
  line: number;
  text: string;
}

export interface AssertionsResult {
  passed: boolean;
  /** One line per problem ("file:line: …"), or what was checked when it passed. */
  detail: string;
  /** Assertion lines removed from files whose assertion count went down (base-file line numbers). */
  removed: LineRef[];
  /** Skip/only/todo markers added (new-file line numbers). */
  skipsAdded: LineRef[];
  deletedTestFiles: string[];
  /** Test files added or changed and still present (what red→green runs against the base). */
  changedTestFiles: string[];
}

const clip = (s: string): string => {
  const t = s.trim();
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
};

/**
 * The assertions-kept gate's facts: the diff of test files between `baseSha` and the worktree now
 * (untracked files included). A file fails when it loses more assertion lines than it gains, gains
 * skip/only/todo markers, or is deleted. A renamed test file is judged by its content change.
 */
export async function assertionsKept(root: string, baseSha: string): Promise<AssertionsResult> {
  let diffs: FileDiff[];
  try {
    diffs = await worktreeDiff(root, baseSha, isTestFile);
  } catch (e) {
    const msg = (e as Error).message;
    return { passed: false, detail: `could not diff the test files against ${baseSha.slice(0, 12)}: ${msg}`, removed: [], skipsAdded: [], deletedTestFiles: [], changedTestFiles: [] };
  }
  const removed: LineRef[] = [];
  const skipsAdded: LineRef[] = [];
  const deletedTestFiles: string[] = [];
  const changedTestFiles: string[] = [];
  const problems: string[] = [];
  for (const f of diffs) {
    if (f.status === 'deleted' || !isTestFile(f.path)) {
      // Deleted, or moved out of the test folders (which takes it out of the run just the same).
      const gone = f.oldPath ?? f.path;
      deletedTestFiles.push(gone);
      problems.push(`${gone}: test file deleted${f.status === 'deleted' ? '' : ` (moved to ${f.path})`}`);
      continue;
    }
    changedTestFiles.push(f.path);
    const lost = f.removed.filter((l) => isAssertionLine(l.text));
    const gained = f.added.filter((l) => isAssertionLine(l.text));
    if (lost.length > gained.length) {
      const refs = lost.map((l) => ref(f.oldPath ?? f.path, l));
      removed.push(...refs);
      const where = refs.slice(0, 3).map((r) => `line ${r.line}: \`${r.text}\``).join('; ');
      problems.push(`${f.path}: ${lost.length - gained.length} assertion(s) removed (${lost.length} removed, ${gained.length} added; ${where})`);
    }
    const skipsNow = f.added.filter((l) => isSkipLine(l.text));
    const skipsBefore = f.removed.filter((l) => isSkipLine(l.text)).length;
    if (skipsNow.length > skipsBefore) {
      const refs = skipsNow.map((l) => ref(f.path, l));
      skipsAdded.push(...refs);
      problems.push(...refs.map((r) => `${r.file}:${r.line}: skip/only marker added: \`${r.text}\``));
    }
  }
  const detail = problems.length
    ? problems.join('\n')
    : changedTestFiles.length
      ? `${changedTestFiles.length} test file(s) changed; no assertion removed, no skip added`
      : 'no test file changed';
  return { passed: problems.length === 0, detail, removed, skipsAdded, deletedTestFiles, changedTestFiles };
}

function ref(file: string, l: DiffLine): LineRef {
  return { file, line: l.line, text: clip(l.text) };
}
