/**
 * Which package.json script a command runs, and in which manifest(s): `npm test`, `npm run x -w
 * packages/a`, `npm test --workspaces`, `pnpm -r test`, `pnpm --filter a test`, `yarn workspace a test`,
 * `yarn workspaces foreach -A run test`, `bun run --filter a test`. A command with a workspace selector
 * runs the script of that workspace's package.json, not the root's.
 */
import { posix } from 'node:path';
import { commandSegments, withoutAssignments } from './shell-words.js';
import { findWorkspace, readManifest, readWorkspaces, type Manifest, type Workspaces } from './workspaces.js';

export type ScriptScope = { kind: 'root' } | { kind: 'all' } | { kind: 'select'; selectors: string[] };

export interface ScriptCall {
  pm: 'npm' | 'pnpm' | 'yarn' | 'bun';
  script: string;
  scope: ScriptScope;
  /** A folder the package manager was pointed at (`--prefix`, `-C`, `--dir`, `--cwd`). */
  dir?: string;
}

/** One manifest a script call reads: its folder ('' for the root), the file shown, and the script's text (absent when it has none). */
export interface ScriptTarget {
  dir: string;
  file: string;
  manifest: Manifest;
  body?: string;
}

const NPM_VALUED = new Set(['-w', '--workspace', '--prefix', '-C', '--loglevel', '--userconfig', '--cache', '--script-shell']);
const NPM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);

function npmCall(words: readonly string[]): ScriptCall | undefined {
  const selectors: string[] = [];
  let all = false;
  let dir: string | undefined;
  let script: string | undefined;
  let verb = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '--') break;
    const eq = /^(--[\w-]+)=(.*)$/.exec(w);
    const [flag, value] = eq ? [eq[1] ?? '', eq[2]] : [w, NPM_VALUED.has(w) ? words[++i] : undefined];
    if (flag === '-w' || flag === '--workspace') selectors.push(value ?? '');
    else if (flag === '-ws' || (flag === '--workspaces' && value !== 'false')) all = true;
    else if (flag === '--prefix' || flag === '-C') dir = value;
    else if (flag.startsWith('-')) continue;
    else if (script === undefined && !verb && ['test', 't', 'tst'].includes(w)) script = 'test';
    else if (script === undefined && !verb && NPM_RUN.has(w)) verb = true;
    else if (script === undefined && verb) script = w;
    else if (script === undefined) return undefined;
  }
  if (script === undefined) return undefined;
  const scope: ScriptScope = selectors.length ? { kind: 'select', selectors } : all ? { kind: 'all' } : { kind: 'root' };
  return { pm: 'npm', script, scope, ...(dir ? { dir } : {}) };
}

const PNPM_VALUED = new Set(['--filter', '-F', '-C', '--dir', '--filter-prod', '--reporter', '--workspace-concurrency']);
/** pnpm's own commands: a word that is one of these is not a script name. */
const PNPM_BUILTIN = new Set([
  'install',
  'i',
  'add',
  'remove',
  'update',
  'exec',
  'dlx',
  'x',
  'why',
  'list',
  'ls',
  'publish',
  'pack',
  'create',
]);

function pnpmCall(words: readonly string[]): ScriptCall | undefined {
  const selectors: string[] = [];
  let all = false;
  let dir: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? '';
    const eq = /^(--[\w-]+)=(.*)$/.exec(w);
    const [flag, value] = eq ? [eq[1] ?? '', eq[2]] : [w, PNPM_VALUED.has(w) ? words[++i] : undefined];
    if (flag === '--filter' || flag === '-F' || flag === '--filter-prod') selectors.push(value ?? '');
    else if (flag === '-r' || flag === '--recursive') all = true;
    else if (flag === '-C' || flag === '--dir') dir = value;
    else if (flag.startsWith('-')) continue;
    else {
      let script: string | undefined = w;
      if (w === 'run' || w === 'run-script') script = words.slice(i + 1).find((x) => !x.startsWith('-'));
      else if (w === 't' || w === 'tst') script = 'test';
      else if (PNPM_BUILTIN.has(w)) return undefined;
      if (script === undefined) return undefined;
      const scope: ScriptScope = selectors.length ? { kind: 'select', selectors } : all ? { kind: 'all' } : { kind: 'root' };
      return { pm: 'pnpm', script, scope, ...(dir ? { dir } : {}) };
    }
  }
  return undefined;
}

const YARN_FOREACH_VALUED = new Set(['--include', '--exclude', '--from', '-j', '--jobs', '--since']);

/** The script of `[run] x` (yarn's words after the workspace part). */
function yarnScript(rest: readonly string[]): string | undefined {
  const words = rest.filter((w) => !w.startsWith('-'));
  if (words[0] === 'run') return words[1];
  return words[0];
}

function yarnCall(words: readonly string[]): ScriptCall | undefined {
  let i = 1;
  let dir: string | undefined;
  while ((words[i] ?? '').startsWith('-')) {
    if (words[i] === '--cwd') dir = words[++i];
    else if (words[i]?.startsWith('--cwd=')) dir = words[i]?.slice(6);
    i++;
  }
  const verb = words[i];
  if (verb === undefined || ['install', 'add', 'remove', 'up', 'dlx', 'exec', 'node'].includes(verb)) return undefined;
  const at = (s: string | undefined, scope: ScriptScope): ScriptCall | undefined =>
    s === undefined ? undefined : { pm: 'yarn', script: s, scope, ...(dir ? { dir } : {}) };
  if (verb === 'workspace') return at(yarnScript(words.slice(i + 2)), { kind: 'select', selectors: [words[i + 1] ?? ''] });
  if (verb === 'workspaces' && words[i + 1] === 'run') return at(words[i + 2], { kind: 'all' });
  if (verb === 'workspaces' && words[i + 1] === 'foreach') {
    const include: string[] = [];
    let j = i + 2;
    for (; j < words.length && (words[j] ?? '').startsWith('-'); j++) {
      const w = words[j] ?? '';
      if (YARN_FOREACH_VALUED.has(w)) {
        if (w === '--include') include.push(words[j + 1] ?? '');
        j++;
      } else if (w.startsWith('--include=')) include.push(w.slice(10));
    }
    return at(yarnScript(words.slice(j)), include.length ? { kind: 'select', selectors: include } : { kind: 'all' });
  }
  return at(yarnScript(words.slice(i)), { kind: 'root' });
}

function bunCall(words: readonly string[]): ScriptCall | undefined {
  if (words[1] === 'test') return undefined; // bun's own runner
  const selectors: string[] = [];
  let script: string | undefined;
  for (let i = 1; i < words.length && script === undefined; i++) {
    const w = words[i] ?? '';
    if (w === '--filter' || w === '-F') selectors.push(words[++i] ?? '');
    else if (w.startsWith('--filter=')) selectors.push(w.slice(9));
    else if (w === 'run' || w.startsWith('-')) continue;
    else script = w;
  }
  if (script === undefined || words[1] === undefined) return undefined;
  return { pm: 'bun', script, scope: selectors.length ? { kind: 'select', selectors } : { kind: 'root' } };
}

/** The script call a simple command (its words, assignments removed) makes; undefined when it is not one. */
export function parseScriptCall(words: readonly string[]): ScriptCall | undefined {
  const program = (words[0] ?? '').split('/').pop();
  if (program === 'npm') return npmCall(words);
  if (program === 'pnpm') return pnpmCall(words);
  if (program === 'yarn') return yarnCall(words);
  if (program === 'bun') return bunCall(words);
  return undefined;
}

/** A pnpm filter selects by name, `./folder`, `{folder}`, with `...` / `^` for dependencies: the package itself is what is read. */
const cleanSelector = (s: string): string => s.replace(/^\.\.\.\^?|\.\.\.$|\^\.\.\.$/g, '').replace(/^\{(.*)\}$/, '$1');

/**
 * The manifests a script call reads, relative to `root` (the folder the command runs in): the root's,
 * each selected workspace's, or every workspace that has the script (`--workspaces`, `-r`, `foreach -A`).
 */
export async function scriptTargets(root: string, call: ScriptCall): Promise<ScriptTarget[]> {
  const base = call.dir ? posix.normalize(call.dir.replace(/\\/g, '/')).replace(/^\.$/, '') : '';
  const target = (dir: string, manifest: Manifest): ScriptTarget => ({
    dir,
    file: dir ? `${dir}/package.json` : 'package.json',
    manifest,
    ...(manifest.scripts[call.script] !== undefined ? { body: manifest.scripts[call.script] } : {}),
  });
  const top = await readManifest(root, base);
  if (call.scope.kind === 'root') return top ? [target(base, top)] : [];
  const ws: Workspaces | undefined = await readWorkspaces(base ? posix.join(root, base) : root, top);
  if (!ws) return top && call.scope.kind === 'all' ? [target(base, top)] : [];
  const join = (d: string): string => (base ? posix.join(base, d) : d);
  if (call.scope.kind === 'all')
    return ws.packages.filter((p) => p.manifest.scripts[call.script] !== undefined).map((p) => target(join(p.dir), p.manifest));
  const picked = call.scope.selectors.flatMap((s) => findWorkspace(ws, cleanSelector(s)));
  return [...new Map(picked.map((p) => [p.dir, p])).values()].map((p) => target(join(p.dir), p.manifest));
}

/**
 * For a command that is one script call (`npm test -w packages/x`, `pnpm --filter x test`, `yarn
 * workspace x test`, assignments before it allowed): the call and the manifests it reads. Undefined for
 * anything else (a list, a direct runner call). What the harness uses to read the right package.json.
 */
export async function commandScriptTargets(
  root: string,
  command: string,
): Promise<{ call: ScriptCall; targets: ScriptTarget[] } | undefined> {
  const segments = commandSegments(command);
  const only = segments.length === 1 ? segments[0] : undefined;
  const call = only ? parseScriptCall(withoutAssignments(only)) : undefined;
  return call ? { call, targets: await scriptTargets(root, call) } : undefined;
}
