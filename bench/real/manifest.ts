/**
 * The real-repository benchmark's manifest (bench/real/cases.json): one entry per upstream fix commit.
 * Only facts about public commits are stored here (repository, commit ids, which changed paths are the
 * test part, how to run and count the tests); the code itself is materialized at run time from the
 * upstream repository (or a local mirror of it) into bench/.cache/real/, never committed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex commit id');

export const RUNNERS = [
  'jest',
  'vitest',
  'mocha',
  'node:test',
  'ava',
  'node-tap',
  'jasmine',
  'playwright',
  'pytest',
  'unittest',
  'go test',
  'cargo test',
] as const;

/** The package-manager installs the bench runs for `install` (pnpm and yarn through corepack when missing). */
export const INSTALLS = ['npm ci', 'npm install', 'pnpm install', 'yarn install'] as const;

export const caseSchema = z.strictObject({
  /** Short unique id: `<name>-<first 7 of the fix>`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*-[0-9a-f]{7}$/),
  /** owner/name on GitHub. */
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  /** The upstream fix commit and its (first) parent: the base the runs start from. */
  fix: sha,
  parent: sha,
  runner: z.enum(RUNNERS),
  /** The upstream commit's subject: the run's prompt. */
  title: z.string().min(1),
  /** Globs (`*`, `**`) of the changed paths that form the test part of the upstream diff; the rest is the source part. */
  tests: z.array(z.string().min(1)).min(1),
  /** `.github/proofpr.yml` content passed with --config; absent: the product detects the commands. */
  config: z.string().optional(),
  /** The test command the replayed agent runs through Bash (what the project's contributors type). */
  agentTest: z.string().min(1),
  /** npm packages the tests need (name → version), installed once into the cache and linked as node_modules. */
  npm: z.record(z.string(), z.string()).optional(),
  /** The project's own install, run once in a checkout of the parent (its manifest and lockfile); every node_modules folder it leaves is linked into each run's checkout. */
  install: z.enum(INSTALLS).optional(),
  /** What the test command is made of (composite script, coverage wrapper, pretest build, workspaces, package manager, TypeScript loader). */
  shape: z.string().min(1).optional(),
  /**
   * The runner run directly, once, on the fixed tree, and how to read its own test count from its output:
   * the name of a rule of COUNT_RULES (one per runner), or a regex whose first group is a count (matches
   * summed; without a group, each match is one test).
   */
  direct: z.strictObject({ command: z.string().min(1), count: z.string().min(1) }),
});

export type BenchCase = z.infer<typeof caseSchema>;

/**
 * The runner's own test count, read from what it prints when run as the maintainer runs it: every test
 * it reports as run, skipped ones included where its own summary counts them, tests it did not select
 * (pytest's `deselected`, libtest's `filtered out`, go's `-run` misses) not included. The product's final
 * run must report the same total (passed + failed + skipped).
 * - pytest: the outcomes of the closing summary line (`N passed, N failed, N errors, N skipped, N xfailed,
 *   N xpassed … in 1.2s`); `deselected`, `warnings` and `rerun` are no tests.
 * - unittest: `Ran N tests` (each call's; a class fixture's skip or error is not in it, as unittest has it).
 * - go: one per `--- PASS/FAIL/SKIP: Name (0.00s)` line of `go test -v`: a test with subtests counts as
 *   itself and each subtest, as go lists them; a mark after output a test printed without a newline counts.
 * - cargo: libtest's `test result:` line per target: passed + failed + ignored.
 * - mocha: `N passing` + `N failing` + `N pending`; ava: `N tests passed/failed/skipped/todo` and
 *   `N known failures`; jest: `Tests: … N total`; vitest: `Tests … (N)`; node:test: `tests N`.
 * - node-tap: its closing `# { total: N, pass: N, … }` line (tap prints TAP when stdout is not a terminal),
 *   which counts the results tap's parser surfaces (every point but a subtest's own closing point that
 *   repeats its block's name and outcome): the harness counts node-tap as tap counts itself and holds its
 *   count against that line (issue 38).
 */
export const COUNT_RULES: Readonly<Record<string, string>> = {
  pytest: '(?<=^=*\\s*(?:\\d+ \\w+, )*)(\\d+) (?:passed|failed|errors?|skipped|xfailed|xpassed)(?=(?:, \\d+ \\w+)* in [\\d.]+s\\b)',
  unittest: '^Ran (\\d+) tests? in ',
  go: '--- (?:PASS|FAIL|SKIP): \\S+ \\([\\d.]+s\\)\\s*$',
  cargo: '(?<=^\\s*test result: \\w+\\.(?: \\d+ \\w+;)*) (\\d+) (?:passed|failed|ignored);',
  mocha: '^\\s*(\\d+) (?:passing|failing|pending)\\b',
  ava: '^\\s*(\\d+) (?:tests? (?:passed|failed|skipped|todo)|known failures?)\\b',
  jest: '^Tests:.*?(\\d+) total',
  vitest: '^\\s*Tests\\s+.*\\((\\d+)\\)',
  'node:test': '^(?:ℹ|#) tests (\\d+)',
  'node-tap': '^# \\{ total: (\\d+)\\b',
};

/** The regex of a case's `direct.count`: its rule's, or the count itself. */
export const countPattern = (count: string): string => COUNT_RULES[count] ?? count;

export const manifestSchema = z.strictObject({ cases: z.array(caseSchema).min(1) }).superRefine((m, ctx) => {
  const seen = new Set<string>();
  m.cases.forEach((c, i) => {
    if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['cases', i, 'id'], message: `duplicate id ${c.id}` });
    seen.add(c.id);
    if (!c.id.endsWith(`-${c.fix.slice(0, 7)}`))
      ctx.addIssue({ code: 'custom', path: ['cases', i, 'id'], message: `id must end with the fix's short id ${c.fix.slice(0, 7)}` });
    try {
      new RegExp(countPattern(c.direct.count));
    } catch (e) {
      ctx.addIssue({ code: 'custom', path: ['cases', i, 'direct', 'count'], message: `bad regex: ${String(e)}` });
    }
  });
});

export type Manifest = z.infer<typeof manifestSchema>;

export function parseManifest(text: string, name = 'bench/real/cases.json'): Manifest {
  const r = manifestSchema.safeParse(JSON.parse(text));
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${name}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

export function readManifest(path: string): Manifest {
  return parseManifest(readFileSync(path, 'utf8'), path);
}

/** Every `cases*.json` of `dir` (cases.json first, then the others by name), as one manifest: ids unique across files. */
export function readManifests(dir: string): Manifest {
  const files = readdirSync(dir)
    .filter((f) => /^cases.*\.json$/.test(f))
    .sort((a, b) => (a === 'cases.json' ? -1 : b === 'cases.json' ? 1 : a.localeCompare(b)));
  if (files.length === 0) throw new Error(`${dir}: no cases*.json manifest`);
  const cases = files.flatMap((f) => readManifest(join(dir, f)).cases);
  return parseManifest(JSON.stringify({ cases }), `${dir}/cases*.json`);
}

/** `*` matches within a path segment, `**` any number of segments. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Splits changed paths into the test part (matching one of `tests`) and the source part. */
export function splitPaths(paths: readonly string[], tests: readonly string[]): { source: string[]; test: string[] } {
  const res = tests.map(globToRegExp);
  const test = paths.filter((p) => res.some((r) => r.test(p)));
  return { source: paths.filter((p) => !test.includes(p)), test };
}

/**
 * The runner's own count in `output`: the sum of every match's first group of `pattern` (a COUNT_RULES name or a regex); without a group,
 * the number of matches; with a named group `name` (go test -v's `--- PASS: A/b` lines), the distinct
 * names that are leaves (no other name extends them with `/`): a test with subtests is their parent.
 */
export function directCount(output: string, pattern: string): number | undefined {
  let total: number | undefined;
  const names = new Set<string>();
  for (const m of output.matchAll(new RegExp(countPattern(pattern), 'gm'))) {
    if (m.groups?.name !== undefined) names.add(m.groups.name);
    // A group named `indent` (node-tap's rule nests blocks by indentation) is structure, not a count.
    else if (m.groups !== undefined && 'indent' in m.groups) total = (total ?? 0) + 1;
    else total = (total ?? 0) + (m.length > 1 ? Number(m[1] ?? 0) : 1);
  }
  if (names.size === 0) return total;
  const all = [...names];
  return all.filter((n) => !all.some((o) => o.startsWith(`${n}/`))).length;
}
