import { onlyDataAppended } from './data-append.js';
import type { Assertion, FileModel, Guard, Span, TestCase, TopLevel } from './model.js';
import { split, weakening } from './weakening.js';

export type FindingKind =
  | 'assertion-removed'
  | 'assertion-weakened'
  | 'marker'
  | 'mock'
  | 'test-removed'
  | 'code-changed'
  | 'import-changed'
  | 'unparsed'
  | 'deleted'
  | 'snapshot'
  | 'support'
  | 'config'
  | 'unclassified';

/** One offending change, with the hunk it is in (file, line range and text). */
export interface Finding {
  kind: FindingKind;
  file: string;
  /** 1-based line range in the file named (`base` true: in the base commit's version of it). */
  start: number;
  end: number;
  text: string;
  what: string;
  test?: string;
  base?: boolean;
}

const GUARD_TEXT: Record<Guard, string> = {
  try: 'wrapped in try (a failure is caught)',
  catch: 'moved into a catch block (it runs only when something throws)',
  conditional: 'moved under a condition (it may not run)',
  loop: 'moved into a loop (it may run zero times)',
  callback: 'moved into a callback (it may run after the test ended, or never)',
  'after-return': 'placed after an early return (it never runs)',
};

const finding = (kind: FindingKind, file: string, s: Span, what: string, extra: { test?: string; base?: boolean } = {}): Finding => ({
  kind,
  file,
  start: s.start,
  end: s.end,
  text: s.text,
  what,
  ...extra,
});

/** Test names made unique in order (a second `it('x')` is `x #2`). */
function byName(tests: readonly TestCase[]): Map<string, TestCase> {
  const out = new Map<string, TestCase>();
  for (const t of tests) {
    let n = t.name;
    for (let i = 2; out.has(n); i++) n = `${t.name} #${i}`;
    out.set(n, t);
  }
  return out;
}

function newMarkers(before: TestCase | undefined, after: TestCase): TestCase['markers'] {
  const pool = new Map<string, number>();
  for (const m of before?.markers ?? []) pool.set(m.kind, (pool.get(m.kind) ?? 0) + 1);
  return after.markers.filter((m) => {
    const n = pool.get(m.kind) ?? 0;
    if (n > 0) pool.set(m.kind, n - 1);
    return n === 0;
  });
}

function compareAssertions(file: string, oldFile: string, name: string, before: TestCase, after: TestCase): Finding[] {
  const out: Finding[] = [];
  const free = [...after.assertions];
  const take = (pred: (a: Assertion) => boolean): Assertion | undefined => {
    const i = free.findIndex(pred);
    return i < 0 ? undefined : free.splice(i, 1)[0];
  };
  const guardsAdded = (b: Assertion, a: Assertion): void => {
    for (const g of a.guards) {
      if (b.guards.includes(g)) continue;
      const s = a.guardSpans[g] ?? a.span;
      out.push(finding('assertion-weakened', file, s, `assertion \`${clip(a.span.text)}\` ${GUARD_TEXT[g]}`, { test: name }));
    }
  };
  const rest: Assertion[] = [];
  for (const b of before.assertions) {
    const a = take((x) => x.key === b.key);
    if (a) guardsAdded(b, a);
    else rest.push(b);
  }
  for (const b of rest) {
    const root = split(b.matcher).prefix.split('.')[0];
    const a =
      take((x) => x.subject === b.subject && split(x.matcher).prefix.split('.')[0] === root && weakening(b, x) === undefined) ??
      take((x) => x.subject === b.subject && split(x.matcher).prefix.split('.')[0] === root);
    if (!a) {
      out.push(
        finding('assertion-removed', oldFile, b.span, 'assertion removed (or changed beyond recognition)', { test: name, base: true }),
      );
      continue;
    }
    const why = weakening(b, a);
    if (why) out.push(finding('assertion-weakened', file, a.span, `${why}; it was \`${clip(b.span.text)}\``, { test: name }));
    guardsAdded(b, a);
  }
  return out;
}

export interface CompareContext {
  /** Whether a mock target (Mock.repoPath) is source code in the repository (not a test or fixture). */
  isRepoSource(repoPath: string): boolean;
  /** Whether the file imports the module at repoPath (directly). */
  imports(file: string, model: FileModel, repoPath: string): boolean;
}

/**
 * Compares a test file's base and final models. `base` undefined: a new file (only markers, mocks of
 * the module it tests and unparsable code count). Returns every offending change.
 */
export function compareTestFile(
  file: string,
  oldFile: string,
  base: FileModel | undefined,
  final: FileModel,
  ctx: CompareContext,
): Finding[] {
  const out: Finding[] = [];
  if (final.parseError)
    out.push({
      kind: 'unparsed',
      file,
      start: 1,
      end: 1,
      text: '',
      what: 'the file has a syntax error the parser could not read: its tests cannot be compared, so the change fails closed',
    });
  const before = base ? byName(base.tests) : new Map<string, TestCase>();
  const after = byName(final.tests);
  for (const [name, b] of before) {
    const a = after.get(name);
    if (!a) {
      out.push(
        finding('test-removed', oldFile, b.span, `test "${name}" removed or renamed: every test of the base must still run`, {
          test: name,
          base: true,
        }),
      );
      continue;
    }
    for (const m of newMarkers(b, a))
      out.push(
        finding('marker', file, m.span, `\`${m.kind}\` marker added to test "${name}": it no longer runs or its failure no longer counts`, {
          test: name,
        }),
      );
    if (a.body !== b.body) out.push(...compareAssertions(file, oldFile, name, b, a));
  }
  for (const [name, a] of after) {
    if (before.has(name)) continue;
    for (const m of a.markers)
      out.push(
        finding(
          'marker',
          file,
          m.span,
          `\`${m.kind}\` marker on new test "${name}"${m.kind === 'only' ? ': it deselects every other test' : ''}`,
          { test: name },
        ),
      );
  }
  const seenMarks = new Set((base?.fileMarkers ?? []).map((m) => `${m.kind}|${m.span.text}`));
  for (const m of final.fileMarkers) {
    if (seenMarks.has(`${m.kind}|${m.span.text}`)) continue;
    if (out.some((f) => f.kind === 'marker' && f.start === m.span.start && f.file === file)) continue;
    out.push(finding('marker', file, m.span, `\`${m.kind}\` added: it skips or deselects tests`));
  }
  out.push(...newMocksOfSource(file, base, final, ctx));
  if (base)
    out.push(
      ...compareTopLevel(
        file,
        oldFile,
        base.topLevel,
        final.topLevel,
        base.tests.length || final.tests.length ? 'code outside the tests' : 'test helper code',
      ),
    );
  return out;
}

/** Mocks the final file adds of code under test in this repository (a new file: only of a module it imports). */
function newMocksOfSource(file: string, base: FileModel | undefined, final: FileModel, ctx: CompareContext): Finding[] {
  const out: Finding[] = [];
  const baseMocks = new Set((base?.mocks ?? []).map((m) => `${m.how}|${m.target}`));
  for (const m of final.mocks) {
    if (baseMocks.has(`${m.how}|${m.target}`) || m.repoPath === undefined || !ctx.isRepoSource(m.repoPath)) continue;
    if (!base && !ctx.imports(file, final, m.repoPath)) continue;
    out.push(
      finding(
        'mock',
        file,
        m.span,
        `\`${m.how}\` of \`${m.target}\`, code under test in this repository: the test would check the mock, not the code`,
      ),
    );
  }
  return out;
}

/**
 * Statements outside tests: an existing one changed or removed fails (it feeds the tests: data,
 * helpers, hooks), an import that now binds a name to another module fails, and added hooks or
 * load-time code fail (they run around the existing tests). Added imports and declarations pass.
 */
export function compareTopLevel(
  file: string,
  oldFile: string,
  before: readonly TopLevel[],
  after: readonly TopLevel[],
  what = 'code outside the tests',
): Finding[] {
  const out: Finding[] = [];
  const pool = new Map<string, number>();
  for (const t of after) pool.set(t.key, (pool.get(t.key) ?? 0) + 1);
  const used = new Map<string, number>();
  const newBindings = new Map<string, { source: string; span: Span }>();
  for (const t of after) for (const [k, v] of Object.entries(t.bindings ?? {})) newBindings.set(k, { source: v, span: t.span });
  for (const t of before) {
    const n = pool.get(t.key) ?? 0;
    if (n > 0) {
      pool.set(t.key, n - 1);
      used.set(t.key, (used.get(t.key) ?? 0) + 1);
      continue;
    }
    if (t.kind === 'import') {
      for (const [k, v] of Object.entries(t.bindings ?? {})) {
        const now = newBindings.get(k);
        if (now && now.source !== v)
          out.push(
            finding(
              'import-changed',
              file,
              now.span,
              `\`${k}\` is now imported from \`${now.source}\` instead of \`${v}\`: the tests would check other code`,
            ),
          );
      }
      continue;
    }
    // A table of cases that only gained rows keeps every existing case: the statement counts as kept.
    const grown =
      t.kind !== 'hook'
        ? after.find((u) => u.kind === t.kind && (pool.get(u.key) ?? 0) > 0 && onlyDataAppended(t.span.text, u.span.text))
        : undefined;
    if (grown) {
      pool.set(grown.key, (pool.get(grown.key) ?? 0) - 1);
      used.set(grown.key, (used.get(grown.key) ?? 0) + 1);
      continue;
    }
    out.push(
      finding(
        'code-changed',
        oldFile,
        t.span,
        `${t.kind === 'hook' ? 'hook' : what} changed or removed: the tests depend on it and its change cannot be shown to keep them as strict (base lines)`,
        { base: true },
      ),
    );
  }
  const seen = new Map<string, number>();
  for (const t of after) {
    const k = (seen.get(t.key) ?? 0) + 1;
    seen.set(t.key, k);
    if (k <= (used.get(t.key) ?? 0)) continue;
    if (t.kind === 'hook') out.push(finding('code-changed', file, t.span, 'hook added: it runs around the existing tests'));
    else if (t.kind === 'code')
      out.push(finding('code-changed', file, t.span, 'code added that runs when the tests load (it can patch what the tests check)'));
  }
  return out;
}

function clip(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 117)}...` : t;
}

/** One finding as the gate detail shows it: `file:start-end: what [test "name"]` and the hunk's text. */
export function formatFinding(x: Finding): string {
  const range = x.end > x.start ? `${x.start}-${x.end}` : `${x.start}`;
  const where = `${x.file}:${range}${x.base ? ' (base)' : ''}`;
  const text = x.text.trim() === '' ? '' : `\n${hunkText(x.text)}`;
  return `${where}: ${x.what}${x.test ? ` [test "${x.test}"]` : ''}${text}`;
}

function hunkText(text: string): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, 8).map((l) => `    ${l.length > 160 ? `${l.slice(0, 157)}...` : l}`);
  if (lines.length > 8) shown.push(`    ... (${lines.length - 8} more lines)`);
  return shown.join('\n');
}
