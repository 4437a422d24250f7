import type { PermissionDecision } from './types.js';
import { resolveInside } from './path-jail.js';
import { fileRuleMatches, type PermissionRule } from './rules.js';
import { ignoredReason, type IgnoredPaths } from './git-ignored.js';
import { folderDeniedBy } from './read-deny.js';

export interface FilePolicy {
  root: string;
  gitDirs: string[];
  /** `permissions.writable` (+ `writable_workflows`): protected paths the maintainer opened for writing. */
  isWritable: (rel: string) => boolean;
  /** Secret files a `Read(...)` allow rule names: readable (test fixture keys). */
  secretExempt: (rel: string) => boolean;
  mode: 'plan' | 'default';
  allow: PermissionRule[];
  deny: PermissionRule[];
  configFile: string;
  /** Git's ignore rules: Write/Edit of an ignored path is refused (it would not be committed). */
  ignored?: IgnoredPaths;
}

const no = (rule: string, reason: string): PermissionDecision => ({ behavior: 'deny', rule, reason });

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const v = (input as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

function badPattern(pattern: string): boolean {
  return pattern.startsWith('~') || pattern.split(/[/\\]/).includes('..') || pattern.includes('\0');
}

/** Read / Write / Edit / Glob / Grep / TodoWrite: path jail, then deny rules, mode, git-ignored writes, allow rules. */
export function decideFileTool(p: FilePolicy, tool: string, input: unknown): PermissionDecision {
  if (tool === 'TodoWrite') {
    const d = p.deny.find((r) => r.tool === 'TodoWrite');
    return d ? no(`config-deny:${d.text}`, `TodoWrite is refused by permissions.deny in ${p.configFile}`) : { behavior: 'allow', rule: 'builtin-allow:TodoWrite', reason: '' };
  }
  const writing = tool === 'Write' || tool === 'Edit';
  const key = tool === 'Read' || writing ? 'file_path' : 'path';
  const raw = field(input, key);
  if (raw === undefined && key === 'file_path') return no('builtin-deny:input', `${tool} needs a string file_path`);
  for (const k of ['pattern', 'glob'] as const) {
    const pat = tool === 'Glob' || k === 'glob' ? field(input, k) : undefined;
    if (pat !== undefined && badPattern(pat)) return no('builtin-deny:path', `${tool} ${k} "${pat}" reaches outside the worktree (".." or "~"); use a pattern relative to the worktree`);
    if (pat !== undefined && pat.startsWith('/') && !pat.startsWith(`${p.root}/`)) {
      return no('builtin-deny:path', `${tool} ${k} "${pat}" is outside the worktree; use a pattern relative to the worktree`);
    }
  }
  const target = raw ?? '.';
  const jail = resolveInside(p.root, target, { gitDirs: p.gitDirs, access: writing ? 'write' : 'read', isWritable: p.isWritable, secretExempt: p.secretExempt });
  if (!jail.ok) return no('builtin-deny:path', `${tool} refused: ${jail.reason}`);
  const isDir = key === 'path';
  const denied =
    p.deny.find((r) => (r.tool === tool && !r.paths) || fileRuleMatches(r, tool, jail.rel, isDir)) ??
    (isDir && (tool === 'Grep' || tool === 'Glob') ? folderDeniedBy(p.deny, jail.rel) : undefined);
  if (denied) return no(`config-deny:${denied.text}`, `${tool} of "${target}" is refused by permissions.deny "${denied.text}" in ${p.configFile}; leave that path alone`);
  if (writing && p.mode === 'plan') return no('mode:plan', `plan mode is read-only: ${tool} is not available; describe the change in your plan instead`);
  if (writing && p.ignored?.isIgnored(jail.rel)) return no('builtin-deny:ignored-path', `${tool} refused: ${ignoredReason(target)}`);
  const allowed = p.allow.find((r) => (r.tool === tool && !r.paths) || fileRuleMatches(r, tool, jail.rel, isDir));
  if (allowed) return { behavior: 'allow', rule: `config-allow:${allowed.text}`, reason: '' };
  return { behavior: 'allow', rule: writing ? `builtin-allow:${tool} inside worktree` : `builtin-allow:${tool} read-only`, reason: '' };
}
