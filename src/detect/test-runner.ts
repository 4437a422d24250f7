/**
 * The test runner(s) a command really calls: read from the command, then from the package.json scripts
 * it runs (following `npm run x` chains, `&&` lists, workspace selectors and wrappers such as c8, nyc,
 * cross-env, dotenv), and, when no script names one, from the devDependencies of the manifests read.
 * Used to say which runner a project uses (detection's `why`, doctor's and readiness's hints) and by
 * the harness to read the right manifest for `-w`, `--filter`, `-r`, `yarn workspace x`.
 */
import { join, posix } from 'node:path';
import { parseScriptCall, scriptTargets, type ScriptCall, type ScriptTarget } from './script-call.js';
import { commandSegments, withoutAssignments } from './shell-words.js';
import type { Manifest } from './workspaces.js';

export interface RunnerTrace {
  /** Runner names in the order found (jest, vitest, mocha, ava, jasmine, node-tap, tape, uvu, karma, playwright, node:test, bun). */
  runners: string[];
  /** How they were found, one step a line: `package.json scripts.test: tsc --noEmit && jest`. */
  steps: string[];
  /** True when a runner came only from devDependencies (no script names it). */
  fromDependencies: boolean;
}

/** Programs that run the rest of their words as a command, and their options that take a value. */
const WRAPPERS: Record<string, Set<string>> = {
  'cross-env': new Set(),
  'cross-env-shell': new Set(),
  env: new Set(['-u', '-C', '-S']),
  dotenv: new Set(['-e', '-c', '-v', '-p']),
  'dotenv-cli': new Set(['-e', '-c', '-v', '-p']),
  c8: new Set(['-r', '--reporter', '-o', '--reports-dir', '--include', '--exclude', '-n', '-x', '--src', '--temp-directory']),
  nyc: new Set(['-r', '--reporter', '--include', '--exclude', '-n', '-x', '--require', '-i', '--temp-dir', '--report-dir']),
  npx: new Set(['-p', '--package', '-c']),
  bunx: new Set(['-p', '--package']),
  time: new Set(),
  nice: new Set(['-n']),
};

/** A program name → the runner it is (the first word after wrappers). */
const PROGRAMS: Record<string, string> = {
  jest: 'jest',
  vitest: 'vitest',
  mocha: 'mocha',
  _mocha: 'mocha',
  'ts-mocha': 'mocha',
  'electron-mocha': 'mocha',
  ava: 'ava',
  jasmine: 'jasmine',
  tap: 'node-tap',
  tape: 'tape',
  uvu: 'uvu',
  karma: 'karma',
  'react-scripts': 'jest',
  craco: 'jest',
  'vue-cli-service': 'jest',
  ng: 'karma',
};

/** `node node_modules/jest/bin/jest.js`, `node ./node_modules/.bin/mocha`: the runner a script path names. */
function scriptPathRunner(words: readonly string[]): string | undefined {
  const file = words.slice(1).find((w) => !w.startsWith('-'));
  const m = /node_modules\/(?:\.bin\/)?(@playwright\/test|[\w.-]+)/.exec(file ?? '');
  const name = m?.[1];
  if (name === '@playwright/test') return 'playwright';
  return name ? PROGRAMS[name.replace(/\.[cm]?js$/, '')] : undefined;
}

/** devDependencies that name a runner, for a project whose scripts do not say. */
const DEPENDENCY_RUNNERS: Array<[string, string]> = [
  ['vitest', 'vitest'],
  ['jest', 'jest'],
  ['mocha', 'mocha'],
  ['ava', 'ava'],
  ['@playwright/test', 'playwright'],
  ['tap', 'node-tap'],
  ['jasmine', 'jasmine'],
  ['tape', 'tape'],
  ['uvu', 'uvu'],
  ['karma', 'karma'],
];

const base = (w: string | undefined): string => (w ?? '').split('/').pop() ?? '';

/** The words after any wrapper (and its options, and `--`). */
function unwrap(words0: readonly string[]): string[] {
  let words = withoutAssignments(words0);
  for (let guard = 0; guard < 8; guard++) {
    const program = base(words[0]);
    let i = 1;
    if ((program === 'pnpm' || program === 'yarn' || program === 'npm') && ['exec', 'dlx', 'x'].includes(words[1] ?? '')) i = 2;
    else if (WRAPPERS[program] === undefined) return words;
    const valued = WRAPPERS[program] ?? new Set<string>();
    while (i < words.length) {
      const w = words[i] ?? '';
      if (w === '--') {
        i++;
        break;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && program.startsWith('cross-env')) i++;
      else if (w.startsWith('-')) i += valued.has(w) ? 2 : 1;
      else break;
    }
    words = withoutAssignments(words.slice(i));
  }
  return words;
}

/** The runner one simple command calls directly (after wrappers), if any. */
export function directRunner(words0: readonly string[]): string | undefined {
  const words = unwrap(words0);
  const program = base(words[0]);
  if (program === 'playwright' && words[1] === 'test') return 'playwright';
  if ((program === 'node' || program === 'tsx' || program === 'bun') && words.includes('--test')) return 'node:test';
  if (program === 'bun' && words[1] === 'test') return 'bun';
  if (program === 'react-scripts' || program === 'craco') return words[1] === 'test' ? 'jest' : undefined;
  if (program === 'ng') return words[1] === 'test' ? 'karma' : undefined;
  if (program === 'vue-cli-service') return words[1] === 'test:unit' ? 'jest' : undefined;
  if (program === 'node') return scriptPathRunner(words);
  return PROGRAMS[program];
}

const short = (s: string): string => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

interface Walk {
  root: string;
  runners: string[];
  steps: string[];
  manifests: Manifest[];
  seen: Set<string>;
}

/** The script bodies of `call` run from `cwd` (relative to the root), with folders relative to the root. */
async function targetsFrom(w: Walk, cwd: string, call: ScriptCall): Promise<ScriptTarget[]> {
  const found = await scriptTargets(cwd ? join(w.root, cwd) : w.root, call);
  if (!cwd) return found;
  return found.map((t) => {
    const dir = posix.join(cwd, t.dir);
    return { ...t, dir, file: `${dir}/package.json` };
  });
}

async function walk(w: Walk, command: string, depth: number, cwd: string): Promise<void> {
  if (depth > 6) return;
  for (const segment of commandSegments(command)) {
    const words = unwrap(segment);
    const runner = directRunner(words);
    if (runner) {
      if (!w.runners.includes(runner)) w.runners.push(runner);
      continue;
    }
    const call = parseScriptCall(words);
    if (!call) continue;
    for (const t of await targetsFrom(w, cwd, call)) {
      w.manifests.push(t.manifest);
      const key = `${t.dir}#${call.script}`;
      if (t.body === undefined || w.seen.has(key)) continue;
      w.seen.add(key);
      w.steps.push(`${t.file} scripts.${call.script}: ${short(t.body)}`);
      await walk(w, t.body, depth + 1, t.dir);
    }
  }
}

/** The runners `command` calls, run from `root` (see the file comment). */
export async function traceRunners(root: string, command: string): Promise<RunnerTrace> {
  const w: Walk = { root, runners: [], steps: [], manifests: [], seen: new Set() };
  await walk(w, command, 0, '');
  if (w.runners.length) return { runners: w.runners, steps: w.steps, fromDependencies: false };
  for (const m of w.manifests) {
    const deps = { ...m.dependencies, ...m.devDependencies };
    for (const [dep, runner] of DEPENDENCY_RUNNERS)
      if (dep in deps && !w.runners.includes(runner)) {
        w.runners.push(runner);
        w.steps.push(`${dep} is in ${m.name ?? 'the'} package.json dependencies`);
      }
  }
  return { runners: w.runners, steps: w.steps, fromDependencies: w.runners.length > 0 };
}

/** One sentence: "runs jest (package.json scripts.test: tsc --noEmit && jest)", or undefined when no runner was found. */
export function describeTrace(t: RunnerTrace): string | undefined {
  if (!t.runners.length) return undefined;
  const how = t.steps.length ? ` (${t.steps.join(' → ')})` : '';
  return `${t.fromDependencies ? 'probably runs' : 'runs'} ${t.runners.join(' and ')}${how}`;
}
