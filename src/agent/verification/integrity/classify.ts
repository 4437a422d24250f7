import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import ignore from 'ignore';
import { git } from '../../../workspace/git.js';
import { isTestFile } from '../changes/test-files.js';
import type { FileDiff } from '../changes/worktree-diff.js';
import { doctestLines, expectedOutputChanged, goExampleOutputLines } from './expected-output.js';
import { compareTestFile, compareTopLevel, type Finding } from './compare.js';
import { inlineRustTests } from './inline-rust-tests.js';
import { jsModel } from './js-model.js';
import type { FileModel } from './model.js';
import { langOf, linesOf, parseCode, type Node } from './parse.js';
import { pyModel } from './py-model.js';

/** What a changed file is to the tests. */
export type Role = 'allowed' | 'test' | 'snapshot' | 'mock' | 'support' | 'source';

/** Folders whose files exist for the tests (data, helpers, fixtures), not for the product. */
const SUPPORT_DIR =
  /(?:^|\/)(?:test|tests|__tests__|spec|specs|e2e|fixtures?|__fixtures__|testdata|test-utils|testutils|testing|test-helpers|test_helpers|test_utils)\//i;
/** File names that say "test support" wherever they are. */
const SUPPORT_NAME =
  /(?:^|\/)(?:conftest\.py|[^/]*(?:[._-](?:fixtures?|test-?utils?|test-?helpers?|testing)|^(?:test|spec)[._-]?(?:utils?|helpers?|setup|support))\.[cm]?[jt]sx?)$/i;
const SNAPSHOT = /(?:^|\/)__snapshots__\/|\.snap$/;
const MOCKS = /(?:^|\/)__mocks__\//;
const VENDORED = /(?:^|\/)(?:node_modules|vendor|\.venv|venv)\//;

export function roleOf(path: string, allowed: (p: string) => boolean): Role {
  if (allowed(path)) return 'allowed';
  if (VENDORED.test(path)) return 'source';
  if (SNAPSHOT.test(path)) return 'snapshot';
  if (MOCKS.test(path)) return 'mock';
  if (posix.basename(path) === 'conftest.py') return 'support';
  if (isTestFile(path)) return 'test';
  if (SUPPORT_DIR.test(path) || SUPPORT_NAME.test(path)) return 'support';
  return 'source';
}

/** roleOf, where a file the runners reported tests from is a test whatever its name (unless another rule names it). */
const reportedRole = (p: string, allowed: (p: string) => boolean, reported: ReadonlySet<string> | undefined): Role => {
  const r = roleOf(p, allowed);
  return r === 'source' && reported?.has(p) ? 'test' : r;
};

/** A matcher for `gates.test_changes_allowed` (gitignore-style globs). */
export function allowedMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const ig = ignore().add([...globs]);
  return (p) => ig.ignores(p);
}

export interface IntegrityInput {
  root: string;
  baseSha: string;
  diffs: readonly FileDiff[];
  allowed?: readonly string[];
  gitDir?: string;
  /** Files the runner loads before the tests (setup/preload), already known to the config gate: skipped here. */
  skip?: ReadonlySet<string>;
  /** Files the runners reported tests from (base and this run): tests whatever their names, unless a rule names them otherwise. */
  reported?: ReadonlySet<string>;
}

export interface IntegrityResult {
  findings: Finding[];
  /** Files compared as tests with the parser (the rest of the test files: line rules, see assertions.ts). */
  parsed: string[];
  /** Test files in a language the parser does not read (the caller applies the line rules to them). */
  unparsedTests: FileDiff[];
  changedTestFiles: string[];
  deletedTestFiles: string[];
  allowedChanged: string[];
  supportChanged: string[];
}

/**
 * Classifies every changed file (base → worktree) by what it is to the tests, and compares the parsed
 * base and final versions of each test file, snapshot, mock and support file. Returns the offending
 * changes with their hunks.
 */
export async function classifyChanges(input: IntegrityInput): Promise<IntegrityResult> {
  const allowed = allowedMatcher(input.allowed ?? []);
  const res: IntegrityResult = {
    findings: [],
    parsed: [],
    unparsedTests: [],
    changedTestFiles: [],
    deletedTestFiles: [],
    allowedChanged: [],
    supportChanged: [],
  };
  const gitEnv = input.gitDir ? { env: { GIT_DIR: input.gitDir } } : {};
  const baseText = async (path: string): Promise<string | undefined> => {
    const r = await git(['show', `${input.baseSha}:${path}`], { cwd: input.root, okCodes: [0, 128], ...gitEnv });
    return r.code === 0 ? r.stdout : undefined;
  };
  const nowText = (path: string): Promise<string | undefined> => readFile(join(input.root, path), 'utf8').catch(() => undefined);
  const ctx = repoContext(await listFiles(input.root, input.gitDir));

  for (const f of input.diffs) {
    if (input.skip?.has(f.path)) continue;
    const oldPath = f.oldPath ?? f.path;
    const roles = [reportedRole(oldPath, allowed, input.reported), reportedRole(f.path, allowed, input.reported)];
    if (roles.includes('allowed') && roles.every((r) => r === 'allowed' || r === 'source')) {
      res.allowedChanged.push(f.path);
      continue;
    }
    const [rb, rf] = roles as [Role, Role];
    if (posix.basename(f.path) === '.gitattributes' || posix.basename(oldPath) === '.gitattributes') continue;
    if (rb === 'test' && (f.status === 'deleted' || rf !== 'test')) {
      res.deletedTestFiles.push(oldPath);
      res.findings.push({
        kind: 'deleted',
        file: oldPath,
        start: 1,
        end: 1,
        text: '',
        what: `test file deleted${f.status === 'deleted' ? '' : ` (moved to ${f.path}, out of the test files)`}`,
        base: true,
      });
      continue;
    }
    if (rf === 'test') {
      res.changedTestFiles.push(f.path);
      await classifyTestFile(f, res, ctx, baseText, nowText);
      if (f.path.endsWith('_test.go'))
        res.findings.push(...expectedOutputChanged(f, await baseText(oldPath), 'Go example output', goExampleOutputLines));
      continue;
    }
    if (rb === 'snapshot' || rf === 'snapshot') {
      res.findings.push(...(await compareSnapshot(f, await baseText(oldPath), await nowText(f.path))));
      continue;
    }
    if (rb === 'mock' || rf === 'mock') {
      res.findings.push(
        hunkFinding(
          'support',
          f,
          `mock module ${f.status === 'added' ? 'added' : f.status === 'deleted' ? 'deleted' : 'changed'} (${'__mocks__'}): it replaces a real module in the tests`,
        ),
      );
      continue;
    }
    if (rb === 'support' || rf === 'support') {
      res.supportChanged.push(f.path);
      res.findings.push(...(await compareSupport(f, f.status === 'added' ? undefined : await baseText(oldPath), await nowText(f.path))));
      continue;
    }
    if (f.path.endsWith('.py') && (await doctestsCollected(baseText))) {
      const found = expectedOutputChanged(f, await baseText(oldPath), 'doctest', doctestLines);
      if (found.length) res.changedTestFiles.push(f.path);
      res.findings.push(...found);
    }
    if (f.path.endsWith('.rs')) inlineRustTests(f, await baseText(oldPath), await nowText(f.path), res);
  }
  return res;
}

/** Whether the base's pytest configuration collects doctests from the modules (`--doctest-modules`). */
async function doctestsCollected(baseText: (path: string) => Promise<string | undefined>): Promise<boolean> {
  for (const f of ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'])
    if (/--doctest-modules\b/.test((await baseText(f)) ?? '')) return true;
  return false;
}

type RepoContext = ReturnType<typeof repoContext>;

/** What comparing a test file needs to know about the repository: is a path its source, does a file import it. */
function repoContext(repoFiles: Parameters<typeof resolveRepoPath>[1]) {
  return {
    isRepoSource: (p: string): boolean => {
      const hit = resolveRepoPath(p, repoFiles);
      return hit !== undefined && roleOf(hit, () => false) === 'source';
    },
    imports: (file: string, m: FileModel, p: string): boolean => {
      const target = resolveRepoPath(p, repoFiles);
      if (target === undefined) return false;
      return m.imports.some((spec) => {
        const rp = p.startsWith('py:')
          ? `py:${spec}`
          : spec.startsWith('.')
            ? posix.normalize(posix.join(posix.dirname(file), spec))
            : undefined;
        return rp !== undefined && resolveRepoPath(rp, repoFiles) === target;
      });
    },
  };
}

/** A changed test file: parsed and compared with its base version, or left to the line rules when no parser reads it. */
async function classifyTestFile(
  f: FileDiff,
  res: IntegrityResult,
  ctx: RepoContext,
  baseText: (path: string) => Promise<string | undefined>,
  nowText: (path: string) => Promise<string | undefined>,
): Promise<void> {
  const oldPath = f.oldPath ?? f.path;
  const lang = langOf(f.path);
  if (!lang) {
    res.unparsedTests.push(f);
    return;
  }
  const after = await nowText(f.path);
  const before = f.status === 'added' ? undefined : await baseText(oldPath);
  if (after === undefined) return;
  res.parsed.push(f.path);
  const finalModel = await modelOf(lang, after, f.path);
  const baseModel = before === undefined ? undefined : await modelOf(langOf(oldPath) ?? lang, before, oldPath);
  res.findings.push(...compareTestFile(f.path, oldPath, baseModel, finalModel, ctx));
}

/** A test support file: new files pass; data files may not change; code files may only gain declarations. */
async function compareSupport(f: FileDiff, before: string | undefined, after: string | undefined): Promise<Finding[]> {
  if (f.status === 'added' || before === undefined) {
    if (posix.basename(f.path) !== 'conftest.py' || after === undefined) return [];
    const m = await modelOf('python', after, f.path);
    return compareTopLevel(f.path, f.path, [], m.topLevel, 'conftest code').filter((x) => /hook/.test(x.what));
  }
  if (f.status === 'deleted' || after === undefined) return [hunkFinding('support', f, 'test support file deleted')];
  const lang = langOf(f.path);
  if (!lang)
    return [
      hunkFinding(
        'support',
        f,
        'test data/fixture changed: the tests compare against it (add new fixture files instead, or list it in gates.test_changes_allowed)',
      ),
    ];
  const bm = await modelOf(lang, before, f.oldPath ?? f.path);
  const am = await modelOf(lang, after, f.path);
  const out: Finding[] = [];
  if (am.parseError)
    out.push({
      kind: 'unparsed',
      file: f.path,
      start: 1,
      end: 1,
      text: '',
      what: 'the test helper has a syntax error the parser could not read: the change fails closed',
    });
  // Assertion helpers (`function expectSorted(x) { expect(...) }`) are compared like tests, by function.
  out.push(...compareTopLevel(f.path, f.oldPath ?? f.path, bm.topLevel, am.topLevel, 'test helper code'));
  return out.map((x) => ({
    ...x,
    what: `${x.what}${x.kind === 'code-changed' ? ' (list the file in gates.test_changes_allowed if the agent may change it)' : ''}`,
  }));
}

/** Jest-style snapshot files: an entry added passes; an entry changed or removed is a rewritten expectation. */
async function compareSnapshot(f: FileDiff, before: string | undefined, after: string | undefined): Promise<Finding[]> {
  if (before === undefined) return [];
  if (after === undefined) return [hunkFinding('snapshot', f, 'snapshot file deleted: its expectations are gone')];
  const b = await snapshotEntries(before);
  const a = await snapshotEntries(after);
  if (!b || !a) return [hunkFinding('snapshot', f, 'snapshot changed (not a jest snapshot file the parser reads): expectations rewritten')];
  const out: Finding[] = [];
  for (const [key, old] of b) {
    const now = a.get(key);
    if (now === undefined)
      out.push({
        kind: 'snapshot',
        file: f.oldPath ?? f.path,
        start: old.start,
        end: old.end,
        text: old.text,
        what: `snapshot \`${key}\` removed`,
        base: true,
      });
    else if (now.value !== old.value)
      out.push({
        kind: 'snapshot',
        file: f.path,
        start: now.start,
        end: now.end,
        text: now.text,
        what: `snapshot \`${key}\` rewritten (as \`-u\` does): the expected output changed`,
      });
  }
  return out;
}

async function snapshotEntries(
  text: string,
): Promise<Map<string, { value: string; start: number; end: number; text: string }> | undefined> {
  const { root, hasError } = await parseCode('javascript', text);
  if (hasError) return undefined;
  const out = new Map<string, { value: string; start: number; end: number; text: string }>();
  for (const a of root.descendantsOfType('assignment_expression')) {
    const left = a?.childForFieldName('left');
    const right = a?.childForFieldName('right');
    if (!a || !left || !right || left.type !== 'subscript_expression' || left.childForFieldName('object')?.text !== 'exports') continue;
    const key = (left.childForFieldName('index')?.text ?? '').slice(1, -1);
    out.set(key, { value: right.text, ...linesOf(a), text: a.text });
  }
  return out;
}

/** A finding that names the first changed lines of a diff (for files compared as a whole). */
export function hunkFinding(kind: Finding['kind'], f: FileDiff, what: string): Finding {
  const lines = f.added.length ? f.added : f.removed;
  const first = lines[0];
  const run = lines.filter((l, i) => first && l.line === first.line + i).slice(0, 12);
  const text = run.map((l) => `${f.added.length ? '+' : '-'}${l.text}`).join('\n');
  return {
    kind,
    file: f.added.length ? f.path : (f.oldPath ?? f.path),
    start: first?.line ?? 1,
    end: run[run.length - 1]?.line ?? first?.line ?? 1,
    text,
    what,
    ...(f.added.length ? {} : { base: true }),
  };
}

const models = new Map<string, FileModel>();

/** The parsed model of one file's text (cached by language and content). */
export async function modelOf(lang: NonNullable<ReturnType<typeof langOf>>, text: string, path: string): Promise<FileModel> {
  const key = `${lang}\0${path}\0${text}`;
  const hit = models.get(key);
  if (hit) return hit;
  const { root, hasError, tree } = await parseCode(lang, text);
  try {
    const m = lang === 'python' ? pyModel(root as Node, path, hasError) : jsModel(root as Node, path, hasError);
    if (models.size > 200) models.clear();
    models.set(key, m);
    return m;
  } finally {
    tree.delete();
  }
}

async function listFiles(root: string, gitDir: string | undefined): Promise<Set<string>> {
  const r = await git(['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root,
    okCodes: [0, 128],
    ...(gitDir ? { env: { GIT_DIR: gitDir, GIT_WORK_TREE: root } } : {}),
  }).catch(() => ({ stdout: '', code: 1 }));
  return new Set(r.stdout.split('\0').filter(Boolean));
}

/** The repository file a module path points at (JS extension rules, Python `py:pkg.mod.attr`). */
export function resolveRepoPath(p: string, files: ReadonlySet<string>): string | undefined {
  if (p.startsWith('py:')) {
    const segs = p.slice(3).split('.');
    for (let i = segs.length; i > 0; i--) {
      const base = segs.slice(0, i).join('/');
      for (const c of [`${base}.py`, `${base}/__init__.py`, `src/${base}.py`, `src/${base}/__init__.py`]) if (files.has(c)) return c;
    }
    return undefined;
  }
  const noExt = p.replace(/\.[cm]?[jt]sx?$/, '');
  for (const c of [
    p,
    `${noExt}.ts`,
    `${noExt}.tsx`,
    `${noExt}.js`,
    `${noExt}.mjs`,
    `${noExt}.cjs`,
    `${noExt}.jsx`,
    `${noExt}.mts`,
    `${p}/index.js`,
    `${p}/index.ts`,
  ])
    if (files.has(c)) return c;
  return undefined;
}
