import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { git } from '../../../workspace/git.js';
import { allowedMatcher, hunkFinding } from './classify.js';
import { formatFinding } from './compare.js';
import { specArgs } from '../changes/test-files.js';
import type { FileDiff } from '../changes/worktree-diff.js';

export interface TestConfigResult {
  passed: boolean;
  /** One line per changed setting or file, or what was checked when it passed. */
  detail: string;
  /** Paths whose test selection changed. */
  changed: string[];
}

/** Test runner config files, by base name: any change to one changes which tests run and how they count. */
const CONFIG_FILE =
  /^(?:(?:jest|vitest|ava|karma|playwright)\.config\.(?:[cm]?[jt]s|json)|vitest\.workspace\.(?:[cm]?[jt]s|json)|\.mocharc(?:\.(?:js|cjs|json|jsonc|ya?ml))?|pytest\.ini|phpunit\.xml(?:\.dist)?|\.rspec)$/;
/** Files where only one section configures the test runner. */
const SECTIONS: Record<string, RegExp> = {
  'pyproject.toml': /^\s*\[tool\.pytest\b/,
  'setup.cfg': /^\s*\[tool:pytest\]/,
  'tox.ini': /^\s*\[pytest\]/,
};
/** package.json keys that hold a runner's config. */
const PACKAGE_CONFIG_KEYS = ['jest', 'mocha', 'ava'];

/**
 * Files that change how the test process starts or what it loads before any test, whatever their
 * content: package-manager config (`.npmrc` `node-options=--require ./x.js`, yarn/pnpm/bun config),
 * environment files a runner or a preload loads, transpiler config the runner applies to test code,
 * and Python start-up hooks.
 */
const LAUNCH_FILE =
  /^(?:\.npmrc|\.yarnrc(?:\.ya?ml)?|\.pnpmfile\.c?js|bunfig\.toml|\.env(?:\..+)?|\.envrc|\.node-options|babel\.config\.(?:[cm]?js|json)|\.babelrc(?:\.(?:[cm]?js|json))?|\.swcrc|sitecustomize\.py|usercustomize\.py|[^/]+\.pth)$/;

/** Whether the path is one the test-config-kept gate looks at (the caller diffs these). */
export function isTestConfigPath(path: string): boolean {
  if (/(?:^|\/)node_modules\//.test(path)) return false;
  const name = posix.basename(path);
  return CONFIG_FILE.test(name) || name === 'package.json' || name in SECTIONS || isLaunchPath(path);
}

/** Whether a change to this file changes how the test process starts (see LAUNCH_FILE). */
export function isLaunchPath(path: string): boolean {
  return !/(?:^|\/)node_modules\//.test(path) && LAUNCH_FILE.test(posix.basename(path));
}

/**
 * npm scripts `test.command` runs: `test` (`npm test`, `npm t`, `yarn test`, …) always, the script named by
 * `npm run X` / `yarn [run] X` / `pnpm [run] X` / `bun run X`, and each one's pre/post script.
 */
export function testScripts(testCommand: string | undefined): string[] {
  const names = new Set(['test']);
  for (const m of (testCommand ?? '').matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)/g)) {
    const n = m[1] ?? '';
    if (!['run', 'run-script', 'exec', 'x', 'dlx', 'install', 'ci', '--'].includes(n) && !n.startsWith('-'))
      names.add(n === 't' ? 'test' : n);
  }
  return [...names].flatMap((n) => [`pre${n}`, n, `post${n}`]);
}

/**
 * The test-config-kept gate's facts: among the changed files (from the gate diff), a test runner config
 * file (jest/vitest/mocha/ava/karma/playwright config, pytest.ini, phpunit.xml) added, changed or deleted;
 * the pytest section of pyproject.toml / setup.cfg / tox.ini changed; or, in a package.json, a script
 * the test command runs (see testScripts) or the jest/mocha/ava key changed. Each narrows or fakes
 * the run the other gates count.
 */
export async function testConfigKept(
  root: string,
  baseSha: string,
  diffs: readonly FileDiff[],
  testCommand: string | undefined,
  gitDir?: string,
  opts: { allowed?: readonly string[] } = {},
): Promise<TestConfigResult> {
  const problems: string[] = [];
  const changed: string[] = [];
  let checked = 0;
  const setup = await setupFiles(root, baseSha, diffs, testCommand, gitDir);
  const allowed = allowedMatcher(opts.allowed ?? []);
  for (const f of diffs) {
    if (allowed(f.path) && !isTestConfigPath(f.path)) continue;
    const named = [f.oldPath ?? f.path, f.path].find((p) => setup.has(p));
    if (named !== undefined && !isTestConfigPath(named)) {
      checked++;
      changed.push(f.path);
      problems.push(
        `${formatFinding(hunkFinding('config', f, `setup/preload file ${f.status === 'added' ? 'added' : f.status === 'deleted' ? 'deleted' : 'changed'}: the runner config or test command (${setup.get(named)}) loads it into the test process before the tests`))}`,
      );
      continue;
    }
    const paths = [...new Set([f.oldPath ?? f.path, f.path])].filter(isTestConfigPath);
    if (paths.length === 0) continue;
    if (paths.some(isLaunchPath)) {
      checked++;
      changed.push(f.path);
      problems.push(
        formatFinding(
          hunkFinding(
            'config',
            f,
            `${f.status === 'added' ? 'added' : f.status === 'deleted' ? 'deleted' : 'changed'}: this file changes how the test process starts or what it loads (package-manager options, environment, transpiler, interpreter start-up)`,
          ),
        ),
      );
      continue;
    }
    checked++;
    const path = paths[paths.length - 1] ?? f.path;
    const name = posix.basename(path);
    try {
      const what = await changedSetting(root, baseSha, f, name, testCommand, gitDir);
      if (what) {
        changed.push(path);
        const h = hunkFinding('config', f, what);
        problems.push(
          `${path}: ${what}${
            h.text
              ? ` (line ${h.start}${h.end > h.start ? `-${h.end}` : ''}${h.base ? ' of the base' : ''})\n${h.text
                  .split('\n')
                  .map((l) => `    ${l}`)
                  .join('\n')}`
              : ''
          }`,
        );
      }
    } catch (e) {
      changed.push(path);
      problems.push(`${path}: could not compare it with the base commit: ${(e as Error).message}`);
    }
  }
  const detail = problems.length
    ? `${problems.join('\n')}\nRevert these changes: the run is judged with the repository's own test scripts and test runner config, which this task must not change.`
    : checked
      ? `${checked} config file(s) changed; no test script or test runner setting changed`
      : 'no test script or test runner config changed';
  return { passed: problems.length === 0, detail, changed };
}

async function changedSetting(
  root: string,
  baseSha: string,
  f: FileDiff,
  name: string,
  testCommand: string | undefined,
  gitDir: string | undefined,
): Promise<string | undefined> {
  if (CONFIG_FILE.test(name))
    return f.status === 'added'
      ? 'test runner config added'
      : f.status === 'deleted'
        ? 'test runner config deleted'
        : 'test runner config changed';
  const before = f.status === 'added' ? '' : await baseText(root, baseSha, f.oldPath ?? f.path, gitDir);
  const after = f.status === 'deleted' ? '' : await readFile(join(root, f.path), 'utf8');
  const section = SECTIONS[name];
  if (section) return sectionOf(before, section) === sectionOf(after, section) ? undefined : 'the pytest section changed';
  const a = packageSettings(before, testCommand);
  const b = packageSettings(after, testCommand);
  const diff = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
  return diff.length ? `${diff.join(', ')} changed` : undefined;
}

async function baseText(root: string, baseSha: string, path: string, gitDir: string | undefined): Promise<string> {
  const r = await git(['show', `${baseSha}:${path}`], { cwd: root, okCodes: [0, 128], ...(gitDir ? { env: { GIT_DIR: gitDir } } : {}) });
  return r.code === 0 ? r.stdout : '';
}

/** The lines of the section whose header matches, trimmed (empty when absent). */
function sectionOf(text: string, header: RegExp): string {
  const out: string[] = [];
  let inside = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) inside = header.test(line);
    if (inside && line.trim() !== '' && !/^\s*[#;]/.test(line)) out.push(line.trim());
  }
  return out.join('\n');
}

/** `scripts.<name>` and runner config keys of a package.json, as comparable strings. */
function packageSettings(text: string, testCommand: string | undefined): Record<string, string> {
  if (text.trim() === '') return {};
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return { 'package.json (not valid JSON)': text };
  }
  if (!pkg || typeof pkg !== 'object') return {};
  const o = pkg as Record<string, unknown>;
  const scripts = o.scripts && typeof o.scripts === 'object' ? (o.scripts as Record<string, unknown>) : {};
  const out: Record<string, string> = {};
  for (const s of testScripts(testCommand)) if (scripts[s] !== undefined) out[`scripts.${s}`] = JSON.stringify(scripts[s]);
  for (const k of PACKAGE_CONFIG_KEYS) if (o[k] !== undefined) out[k] = JSON.stringify(o[k]);
  return out;
}

/** Path-like tokens in config text: `./setup.js`, `<rootDir>/test/setup.ts`, `tests/preload.py`. */
const PATH_TOKEN = /(?:<rootDir>\/|\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]sx?|py|json)\b/g;

/**
 * Files the test process loads before any test, named by the runner config or the test command (jest
 * setupFiles/globalSetup/testEnvironment, vitest setupFiles, mocha --require/--file, node --import/-r,
 * `.npmrc` node-options, the test script itself, pytest `-p`): every path-like token of those texts,
 * base and now, that names a file in the diff. Returns path → the file that names it.
 */
export async function setupFiles(
  root: string,
  baseSha: string,
  diffs: readonly FileDiff[],
  testCommand: string | undefined,
  gitDir?: string,
): Promise<Map<string, string>> {
  const changed = new Set(diffs.flatMap((f) => [f.path, ...(f.oldPath ? [f.oldPath] : [])]));
  const out = new Map<string, string>();
  const sources: { from: string; dir: string; text: string }[] = [{ from: 'test.command', dir: '', text: testCommand ?? '' }];
  const ls = await git(['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root,
    okCodes: [0, 128],
    ...(gitDir ? { env: { GIT_DIR: gitDir, GIT_WORK_TREE: root } } : {}),
  }).catch(() => ({ stdout: '' }));
  const configs = ls.stdout
    .split('\0')
    .filter(
      (p) => p && (isTestConfigPath(p) || /(?:^|\/)(?:tox\.ini|setup\.cfg|pyproject\.toml)$/.test(p)) && !/(?:^|\/)node_modules\//.test(p),
    );
  for (const p of [...new Set([...configs, ...diffs.map((d) => d.oldPath ?? d.path).filter(isTestConfigPath)])].slice(0, 200)) {
    const now = await readFile(join(root, p), 'utf8').catch(() => '');
    const before = await baseText(root, baseSha, p, gitDir).catch(() => '');
    for (const text of [now, before])
      if (text)
        sources.push({
          from: p,
          dir: posix.dirname(p) === '.' ? '' : posix.dirname(p),
          text: posix.basename(p) === 'package.json' ? packageTestText(text) : text,
        });
  }
  // Spec files the test command or a test script names (`mocha tests.js`) are tests, judged by assertions-kept.
  const specs = new Set(
    sources.flatMap((s) =>
      s.from === 'test.command' ? specArgs(s.text) : posix.basename(s.from) === 'package.json' ? scriptSpecs(s.text) : [],
    ),
  );
  for (const s of sources) {
    for (const m of s.text.matchAll(PATH_TOKEN)) {
      const tok = m[0].replace(/^<rootDir>\//, '');
      for (const cand of [posix.normalize(posix.join(s.dir, tok)), posix.normalize(tok)]) {
        if (changed.has(cand) && !out.has(cand) && cand !== s.from && !specs.has(cand)) out.set(cand, s.from);
      }
    }
  }
  return out;
}

/** Spec files named by the scripts in packageTestText's output (its first element holds the scripts). */
function scriptSpecs(text: string): string[] {
  try {
    const [scripts] = JSON.parse(text) as [Record<string, unknown> | undefined];
    return Object.values(scripts ?? {}).flatMap((v) => (typeof v === 'string' ? specArgs(v) : []));
  } catch {
    return [];
  }
}

/** The parts of a package.json that configure the test run (scripts and runner keys), as text. */
function packageTestText(text: string): string {
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify([o.scripts, ...PACKAGE_CONFIG_KEYS.map((k) => o[k])]);
  } catch {
    return text;
  }
}
