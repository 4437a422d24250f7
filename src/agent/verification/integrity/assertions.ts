import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { isAssertionLine, isSkipLine } from './assertion-patterns.js';
import { isEarlyReturn } from '../early-return.js';
import { gateDiff } from '../gates/gate-diff.js';
import { classifyChanges, type IntegrityResult } from './classify.js';
import { formatFinding, type Finding } from './compare.js';

export { formatFinding };
import type { DiffLine, FileDiff } from '../changes/worktree-diff.js';

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
  /** Every offending change with its hunk (the parser-based classification). */
  findings?: Finding[];
}

const clip = (s: string): string => {
  const t = s.trim();
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
};

const MAX_LISTED = 5;

export interface AssertionsOptions {
  /** `gates.test_changes_allowed`: globs of test support files the agent may change freely. */
  allowed?: readonly string[];
  gitDir?: string;
  /** Setup/preload files the test-config gate judges (left out here). */
  skip?: ReadonlySet<string>;
  /** Files the runners reported tests from: test files whatever their names. */
  reported?: ReadonlySet<string>;
}

/**
 * The assertions-kept gate's facts: every change from `baseSha` to the worktree now (untracked files
 * included; `diffs` from gateDiff when the caller already has it), classified by what it is to the
 * tests (integrity/classify.ts). JS/TS and Python test files are parsed (tree-sitter) and compared test
 * by test, matched by full name: a removed or weakened assertion (matcher loosened, argument dropped,
 * wrapped in try/catch, a condition, a callback, or after an early return), a skip/only/todo/failing
 * marker by any syntax, a mock of in-repository code, a removed test, changed code outside the tests,
 * a rewritten snapshot, a changed mock module or test support file fail, each with its hunk. Test files
 * in other languages keep the line rules (a removed assertion line must come back verbatim, no
 * skip line added). Deleted test files and any .gitattributes change fail too.
 */
export async function assertionsKept(
  root: string,
  baseSha: string,
  diffs?: readonly FileDiff[],
  opts: AssertionsOptions = {},
): Promise<AssertionsResult> {
  let all: readonly FileDiff[];
  try {
    all = diffs ?? (await gateDiff(root, baseSha, opts.gitDir));
  } catch (e) {
    const msg = (e as Error).message;
    return {
      passed: false,
      detail: `could not diff the test files against ${baseSha.slice(0, 12)}: ${msg}`,
      removed: [],
      skipsAdded: [],
      deletedTestFiles: [],
      changedTestFiles: [],
      findings: [],
    };
  }
  const removed: LineRef[] = [];
  const skipsAdded: LineRef[] = [];
  const earlyReturns: LineRef[] = [];
  const { attributesChanged, problems } = gitattributesChanges(all);
  let c: IntegrityResult;
  try {
    c = await classifyChanges({
      root,
      baseSha,
      diffs: all,
      ...(opts.allowed ? { allowed: opts.allowed } : {}),
      ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
      ...(opts.skip ? { skip: opts.skip } : {}),
      ...(opts.reported ? { reported: opts.reported } : {}),
    });
  } catch (e) {
    // The parser could not load or a file could not be read: nothing can be shown kept.
    const detail = `could not classify the test changes: ${(e as Error).message}; the gate fails closed`;
    return { passed: false, detail, removed, skipsAdded, deletedTestFiles: [], changedTestFiles: [], findings: [] };
  }
  const findings = [...c.findings];
  for (const x of findings) {
    const r = { file: x.file, line: x.start, text: clip(x.text.split('\n')[0] ?? '') };
    if (x.kind === 'assertion-removed') removed.push(r);
    else if (x.kind === 'marker') skipsAdded.push(r);
    else if (x.kind === 'assertion-weakened' && /early return/.test(x.what)) earlyReturns.push(r);
  }
  problems.push(...findings.map(formatFinding));
  await lineRules(root, c.unparsedTests, { removed, skipsAdded, earlyReturns, problems });
  const { changedTestFiles, deletedTestFiles } = c;
  const freely = c.allowedChanged.length ? `; ${c.allowedChanged.length} file(s) changed under gates.test_changes_allowed` : '';
  const detail = problems.length
    ? problems.join('\n')
    : changedTestFiles.length || c.supportChanged.length
      ? `${changedTestFiles.length} test file(s) (${c.parsed.length} parsed) and ${c.supportChanged.length} support file(s) changed; no assertion removed or weakened, no skip, mock of the code under test or rewritten snapshot added${freely}`
      : `no test file changed${freely}`;
  return {
    passed: problems.length === 0,
    detail,
    removed,
    skipsAdded,
    earlyReturns,
    deletedTestFiles,
    changedTestFiles,
    attributesChanged,
    findings,
  };
}

/** .gitattributes decides how git compares and stages files: any change to one makes the test diff untrustworthy. */
function gitattributesChanges(all: readonly FileDiff[]): { attributesChanged: string[]; problems: string[] } {
  const attributesChanged: string[] = [];
  const problems: string[] = [];
  for (const f of all) {
    if ([f.path, f.oldPath].some((p) => p !== undefined && posix.basename(p) === '.gitattributes')) {
      attributesChanged.push(f.path);
      problems.push(
        `${f.path}: .gitattributes ${f.status === 'added' ? 'added' : f.status === 'deleted' ? 'deleted' : 'changed'}: it decides how git compares and stages files, so the test diff can't be trusted; revert it`,
      );
    }
  }
  return { attributesChanged, problems };
}

/** Test files in languages the parser does not read: the line rules (assertions kept verbatim, no skip, no early return). */
async function lineRules(
  root: string,
  files: readonly FileDiff[],
  out: { removed: LineRef[]; skipsAdded: LineRef[]; earlyReturns: LineRef[]; problems: string[] },
): Promise<void> {
  for (const f of files) {
    if (f.status !== 'added') {
      const lost = unmatched(
        f.removed.filter((l) => isAssertionLine(l.text)),
        f.added,
      ).map((l) => ref(f.oldPath ?? f.path, l));
      if (lost.length) {
        out.removed.push(...lost);
        out.problems.push(
          `${f.path}: ${lost.length} assertion(s) removed or changed (an existing assertion must stay exactly as it was; only new ones may be added): ${listed(lost)}`,
        );
      }
    }
    const skips = unmatched(
      f.added.filter((l) => isSkipLine(l.text)),
      f.removed,
    ).map((l) => ref(f.path, l));
    out.skipsAdded.push(...skips);
    out.problems.push(...skips.map((r) => `${r.file}:${r.line}: skip/only marker added: \`${r.text}\``));
    const returns = await earlyReturnsIn(root, f);
    out.earlyReturns.push(...returns);
    out.problems.push(
      ...returns.map((r) => `${r.file}:${r.line}: \`${r.text}\` added first in a test body: the test's assertions never run`),
    );
  }
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
