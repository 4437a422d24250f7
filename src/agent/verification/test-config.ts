import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { git } from '../../workspace/git.js';
import type { FileDiff } from './worktree-diff.js';

export interface TestConfigResult {
  passed: boolean;
  /** One line per changed setting or file, or what was checked when it passed. */
  detail: string;
  /** Paths whose test selection changed. */
  changed: string[];
}

/** Test runner config files, by base name: any change to one changes which tests run and how they count. */
const CONFIG_FILE = /^(?:(?:jest|vitest|ava|karma|playwright)\.config\.(?:[cm]?[jt]s|json)|vitest\.workspace\.(?:[cm]?[jt]s|json)|\.mocharc(?:\.(?:js|cjs|json|jsonc|ya?ml))?|pytest\.ini|phpunit\.xml(?:\.dist)?|\.rspec)$/;
/** Files where only one section configures the test runner. */
const SECTIONS: Record<string, RegExp> = {
  'pyproject.toml': /^\s*\[tool\.pytest\b/,
  'setup.cfg': /^\s*\[tool:pytest\]/,
  'tox.ini': /^\s*\[pytest\]/,
};
/** package.json keys that hold a runner's config. */
const PACKAGE_CONFIG_KEYS = ['jest', 'mocha', 'ava'];

/** Whether the path is one the test-config-kept gate looks at (the caller diffs these). */
export function isTestConfigPath(path: string): boolean {
  if (/(?:^|\/)node_modules\//.test(path)) return false;
  const name = posix.basename(path);
  return CONFIG_FILE.test(name) || name === 'package.json' || name in SECTIONS;
}

/**
 * npm scripts `test.command` runs: `test` (`npm test`, `npm t`, `yarn test`, …) always, the script named by
 * `npm run X` / `yarn [run] X` / `pnpm [run] X` / `bun run X`, and each one's pre/post script.
 */
export function testScripts(testCommand: string | undefined): string[] {
  const names = new Set(['test']);
  for (const m of (testCommand ?? '').matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)/g)) {
    const n = m[1] ?? '';
    if (!['run', 'run-script', 'exec', 'x', 'dlx', 'install', 'ci', '--'].includes(n) && !n.startsWith('-')) names.add(n === 't' ? 'test' : n);
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
export async function testConfigKept(root: string, baseSha: string, diffs: readonly FileDiff[], testCommand: string | undefined, gitDir?: string): Promise<TestConfigResult> {
  const problems: string[] = [];
  const changed: string[] = [];
  let checked = 0;
  for (const f of diffs) {
    const paths = [...new Set([f.oldPath ?? f.path, f.path])].filter(isTestConfigPath);
    if (paths.length === 0) continue;
    checked++;
    const path = paths[paths.length - 1] ?? f.path;
    const name = posix.basename(path);
    try {
      const what = await changedSetting(root, baseSha, f, name, testCommand, gitDir);
      if (what) {
        changed.push(path);
        problems.push(`${path}: ${what}`);
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

async function changedSetting(root: string, baseSha: string, f: FileDiff, name: string, testCommand: string | undefined, gitDir: string | undefined): Promise<string | undefined> {
  if (CONFIG_FILE.test(name)) return f.status === 'added' ? 'test runner config added' : f.status === 'deleted' ? 'test runner config deleted' : 'test runner config changed';
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
