/*
 * Where Read(...) deny rules hold: Read; Grep/Glob `path`; Grep/Glob results (ToolContext.readDeny);
 * path arguments of Bash read commands (cat, head, grep, wc, sort, ... and unquoted globs); `<`
 * redirects; folders that grep -r, rg and git grep would walk; `git show REV:path` and pathspecs after
 * `--`. Where they do not: listings that only show names (ls, find, du, Glob of a parent without
 * readDeny); git commands without a pathspec that print tracked contents (git diff, git log -p); and
 * anything an allowed program reads by itself (the test command, scripts, interpreters) — inherent.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { walkTree } from '../../workspace/walk-tree.js';
import { RULE_KINDS, fileRuleMatches, parseRules, type PermissionRule } from './rules.js';

/** Worktree-relative POSIX form of `p` ('' for the root, null when it lies outside `root`). */
export function relOf(root: string, p: string): string | null {
  let rel = isAbsolute(p) ? relative(root, p) : p;
  rel = rel
    .split(sep)
    .join('/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (rel === '.' || rel === '') return '';
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return null;
  return rel;
}

/** The Read-family deny rule (Read/Glob/Grep with a path) that covers worktree-relative `rel`, if any. */
export function readDeniedBy(rules: readonly PermissionRule[], rel: string, isDir = false): PermissionRule | undefined {
  if (rel === '') return undefined;
  return rules.find((r) => r.paths !== undefined && fileRuleMatches(r, 'read', rel, isDir));
}

/** Edit-family deny rule (Edit/Write with a path) covering `rel`, if any. */
export function editDeniedBy(rules: readonly PermissionRule[], rel: string): PermissionRule | undefined {
  if (rel === '') return undefined;
  return rules.find((r) => r.paths !== undefined && fileRuleMatches(r, 'edit', rel));
}

/** A deny rule of the Read family (Read, Glob, Grep) that names paths. */
export function isReadPathRule(r: PermissionRule): boolean {
  return r.paths !== undefined && (RULE_KINDS[r.tool] ?? []).includes('read');
}

const PROBE = '__proofpr_probe__';

/** A folder whose whole content is denied (`secrets/**` denies everything in `secrets`, though not the name itself). */
export function folderDeniedBy(rules: readonly PermissionRule[], rel: string): PermissionRule | undefined {
  if (rel === '') return undefined;
  return readDeniedBy(rules, rel, true) ?? readDeniedBy(rules, `${rel}/${PROBE}`);
}

/**
 * The first path under folder `rel` that a Read deny rule covers, walking the file system without
 * following symlinks (as grep -r and rg do) and skipping `.git` (and dot-entries with `skipHidden`, as rg
 * does by default). 'too-many' after `cap` entries.
 */
export function firstDeniedUnder(
  root: string,
  rules: readonly PermissionRule[],
  rel: string,
  opts: { skipHidden?: boolean; cap?: number } = {},
): { path: string; rule: PermissionRule } | 'too-many' | null {
  const cap = opts.cap ?? 20_000;
  if (!rules.some(isReadPathRule)) return null;
  const self = rel === '' ? undefined : folderDeniedBy(rules, rel);
  if (self) return { path: rel, rule: self };
  let found: { path: string; rule: PermissionRule } | undefined;
  const end = walkTree(
    root,
    ({ rel: child, dirent }) => {
      const rule = readDeniedBy(rules, child, dirent.isDirectory());
      if (!rule) return undefined;
      found = { path: child, rule };
      return 'stop';
    },
    { from: rel, cap, skip: (e) => e.name === '.git' || (opts.skipHidden === true && e.name.startsWith('.')) },
  );
  return end === 'truncated' ? 'too-many' : (found ?? null);
}

/**
 * Build `ToolContext.readDeny` from the config's `permissions.deny` list: true for a worktree path
 * (relative, or absolute inside `root`) that a Read/Glob/Grep deny rule covers. Grep and Glob drop
 * such files from their results; Read refuses them. Paths outside `root` are never denied here.
 */
export function readDenyPredicate(root: string, denyRules: readonly string[]): (relPath: string) => boolean {
  const rules = parseRules(denyRules, 'deny').filter(isReadPathRule);
  if (rules.length === 0) return () => false;
  return (relPath) => {
    const rel = relOf(root, relPath);
    if (rel === null || rel === '') return false;
    try {
      return readDeniedBy(rules, rel) !== undefined;
    } catch {
      return true;
    }
  };
}
