import { readdirSync } from 'node:fs';
import { resolveInside } from './path-jail.js';

export interface PathContext {
  root: string;
  gitDirs: string[];
  writableWorkflows: boolean;
  /** Directories a path may be relative to: the root plus every `cd` target in the same command line. */
  cwds: string[];
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
export function checkPathArg(v: string, glob: boolean, access: 'read' | 'write', ctx: PathContext, always: boolean): string | null {
  if (DEVICES.test(v)) return null;
  if (!always && !PATH_LIKE.test(v)) return null;
  const opts = { gitDirs: ctx.gitDirs, access, writableWorkflows: ctx.writableWorkflows };
  for (const cwd of ctx.cwds) {
    if (!glob || !GLOB.test(v)) {
      const r = resolveInside(ctx.root, v, { ...opts, cwd });
      if (!r.ok) return r.reason;
      continue;
    }
    const parts = v.split('/');
    const at = parts.findIndex((p) => GLOB.test(p));
    if (at !== parts.length - 1) return `the glob ${v} has a wildcard in a directory part; name the directories literally (or use find/rg with a quoted pattern)`;
    const dir = parts.slice(0, at).join('/') || (v.startsWith('/') ? '/' : '.');
    const r = resolveInside(ctx.root, dir, { ...opts, cwd });
    if (!r.ok) return r.reason;
    const re = globRegex(parts[at] as string);
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(r.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!re.test(e.name)) continue;
      if (e.isSymbolicLink() || e.name === '.git') {
        const inner = resolveInside(ctx.root, `${r.abs}/${e.name}`, opts);
        if (!inner.ok) return `the glob ${v} matches ${e.name}: ${inner.reason}`;
      }
    }
  }
  return null;
}
