import { readdirSync, statSync } from 'node:fs';
import { gitPathProblem } from '../../workspace/git-path-rules.js';
import { resolveInside } from './path-jail.js';
import type { PermissionRule } from './rules.js';
import type { IgnoredPaths } from './git-ignored.js';
import { editDeniedBy, folderDeniedBy, readDeniedBy } from './read-deny.js';
import type { WorktreeIndex } from './worktree-index.js';

export interface PathContext {
  root: string;
  gitDirs: string[];
  isWritable: (rel: string) => boolean;
  secretExempt: (rel: string) => boolean;
  /** Directories a path may be relative to: the root plus every `cd` target in the same command line. */
  cwds: string[];
  /** Config deny rules: Read(...) rules hold for read arguments, Edit(...)/Write(...) rules for write arguments. */
  deny?: readonly PermissionRule[];
  configFile?: string;
  /** Git's ignore rules: content writes into ignored dependency folders are refused (the final run borrows them). */
  ignored?: IgnoredPaths;
  /** Secret files and escaping symlinks in the worktree, for recursive searches. */
  index?: WorktreeIndex;
  /** The command only lists names (ls, stat, du): a glob may match .git and secret files by name. */
  namesOnly?: boolean;
  /** `NAME=value` prefixes of `test.command` itself (the maintainer's config): allowed on a command line as written there. */
  testEnv?: ReadonlySet<string>;
}

/** Why a path argument is refused, and by which rule ('builtin-deny:path' or 'config-deny:<rule>'). */
export interface PathRefusal {
  rule: string;
  reason: string;
}

const jailed = (reason: string): PathRefusal => ({ rule: 'builtin-deny:path', reason });

/** A config deny rule covering worktree-relative `rel` for this access, as a refusal. */
export function configDenied(rel: string, isDir: boolean, access: 'read' | 'write', ctx: PathContext, shown: string): PathRefusal | null {
  if (!ctx.deny || ctx.deny.length === 0) return null;
  const rule =
    access === 'read'
      ? (readDeniedBy(ctx.deny, rel, isDir) ?? (isDir ? folderDeniedBy(ctx.deny, rel) : undefined))
      : editDeniedBy(ctx.deny, rel);
  if (!rule) return null;
  return {
    rule: `config-deny:${rule.text}`,
    reason: `${shown} is refused by permissions.deny "${rule.text}" in ${ctx.configFile ?? '.github/proofpr.yml'}; leave that path alone`,
  };
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

const DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|u?random|fd\/\d+|tty)$/;
const PATH_LIKE = /^(\/|~|\.\.?(\/|$))|(^|\/)\.\.(\/|$)/;
const GLOB = /(^|[^\\])[*?[]/;

function globRegex(component: string): RegExp {
  let re = '';
  for (const ch of component) {
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[' || ch === ']') re += ch;
    else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return /^.*$/;
  }
}

/**
 * Check one path argument against the worktree jail, for every directory it could be relative to.
 * `always` = this argument is known to be a path (cat, ls, ...); otherwise only explicit paths
 * (absolute, ~, ./, ../) are checked. Unquoted globs may only be in the last component, and every
 * symlink they could match must stay inside too.
 */
export function checkPathArg(v: string, glob: boolean, access: 'read' | 'write', ctx: PathContext, always: boolean): PathRefusal | null {
  if (DEVICES.test(v)) return null;
  if (!always && !PATH_LIKE.test(v)) return null;
  const opts = {
    gitDirs: ctx.gitDirs,
    access: ctx.namesOnly && access === 'read' ? undefined : access,
    linked: access === 'read',
    isWritable: ctx.isWritable,
    secretExempt: ctx.secretExempt,
  };
  for (const cwd of ctx.cwds) {
    if (!glob || !GLOB.test(v)) {
      const r = resolveInside(ctx.root, v, { ...opts, cwd });
      if (!r.ok) return jailed(r.reason);
      // The Write tool's and the commit's rule (git's verify_path, git-path-rules.ts): a file git cannot commit is refused when written.
      const unfit = access === 'write' && r.rel !== '' ? gitPathProblem(r.rel) : undefined;
      if (unfit) return jailed(`${v}: git cannot commit this path (${unfit}), so the work would be lost; choose another name`);
      const denied = configDenied(r.rel, isDirectory(r.abs), access, ctx, `path "${v}"`);
      if (denied) return denied;
      continue;
    }
    const parts = v.split('/');
    const at = parts.findIndex((p) => GLOB.test(p));
    if (at !== parts.length - 1)
      return jailed(
        `the glob ${v} has a wildcard in a directory part; name the directories literally (or use find/rg with a quoted pattern)`,
      );
    const dir = parts.slice(0, at).join('/') || (v.startsWith('/') ? '/' : '.');
    const r = resolveInside(ctx.root, dir, { ...opts, cwd });
    if (!r.ok) return jailed(r.reason);
    const re = globRegex(parts[at] as string);
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(r.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!re.test(e.name)) continue;
      const rel = r.rel === '' ? e.name : `${r.rel}/${e.name}`;
      if (ctx.namesOnly && e.name === '.git') continue;
      if (e.isSymbolicLink() || e.name === '.git' || (access === 'read' && !ctx.namesOnly)) {
        const inner = resolveInside(ctx.root, `${r.abs}/${e.name}`, ctx.namesOnly ? { ...opts, access: undefined } : opts);
        if (!inner.ok) return jailed(`the glob ${v} matches ${e.name}: ${inner.reason}`);
      }
      const denied = configDenied(rel, e.isDirectory(), access, ctx, `the glob ${v} matches ${rel}, which`);
      if (denied) return denied;
    }
  }
  return null;
}
