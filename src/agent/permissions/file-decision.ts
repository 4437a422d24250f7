import type { ToolAccess, ToolKind, ToolLocation } from '../../tools/define-tool.js';
import type { PermissionDecision } from './types.js';
import { resolveInside } from './path-jail.js';
import { fileRuleMatches, ruleNamesTool, type PermissionRule } from './rules.js';
import { dependencyReason, ignoredDependencyDir, type IgnoredPaths } from './git-ignored.js';
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
  /** Git's ignore rules: Write/Edit inside an ignored dependency folder is refused (the final run borrows it); other ignored paths are writable. */
  ignored?: IgnoredPaths;
}

const no = (rule: string, reason: string): PermissionDecision => ({ behavior: 'deny', rule, reason });

function badPattern(pattern: string): boolean {
  return pattern.startsWith('~') || pattern.split(/[/\\]/).includes('..') || pattern.includes('\0');
}

/** A call as the policy sees it: the tool's name (rules name tools), its kind and what it touches. */
export interface FileCall {
  tool: string;
  kind: ToolKind;
  access: ToolAccess;
}

/** Calls that touch paths (read, search, edit) and calls that touch nothing (think tools, Skill): path jail, then deny rules, mode, writes into ignored dependency folders, allow rules. */
export function decideFileTool(p: FilePolicy, call: FileCall): PermissionDecision {
  const { tool, kind, access } = call;
  if (access.paths.length === 0 && access.patterns.length === 0) {
    const d = p.deny.find((r) => ruleNamesTool(r, tool));
    return d
      ? no(`config-deny:${d.text}`, `${tool} is refused by permissions.deny in ${p.configFile}`)
      : { behavior: 'allow', rule: `builtin-allow:${tool}`, reason: '' };
  }
  for (const { field: k, pattern: pat } of access.patterns) {
    if (badPattern(pat))
      return no(
        'builtin-deny:path',
        `${tool} ${k} "${pat}" reaches outside the worktree (".." or "~"); use a pattern relative to the worktree`,
      );
    if (pat.startsWith('/') && !pat.startsWith(`${p.root}/`)) {
      return no('builtin-deny:path', `${tool} ${k} "${pat}" is outside the worktree; use a pattern relative to the worktree`);
    }
  }
  const decisions = (access.paths.length ? access.paths : [{ path: undefined, type: 'dir' as const }]).map((loc) =>
    decidePath(p, tool, kind, loc),
  );
  return decisions.find((d) => d.behavior === 'deny') ?? (decisions[0] as PermissionDecision);
}

function decidePath(p: FilePolicy, tool: string, kind: ToolKind, loc: ToolLocation): PermissionDecision {
  const writing = kind === 'edit';
  const target = loc.path ?? '.';
  const jail = resolveInside(p.root, target, {
    gitDirs: p.gitDirs,
    access: writing ? 'write' : 'read',
    isWritable: p.isWritable,
    secretExempt: p.secretExempt,
  });
  if (!jail.ok) return no('builtin-deny:path', `${tool} refused: ${jail.reason}`);
  const isDir = loc.type === 'dir';
  const denied =
    p.deny.find((r) => (r.tool === tool && !r.paths) || fileRuleMatches(r, kind, jail.rel, isDir)) ??
    (isDir ? folderDeniedBy(p.deny, jail.rel) : undefined);
  if (denied)
    return no(
      `config-deny:${denied.text}`,
      `${tool} of "${target}" is refused by permissions.deny "${denied.text}" in ${p.configFile}; leave that path alone`,
    );
  if (writing && p.mode === 'plan')
    return no('mode:plan', `plan mode is read-only: ${tool} is not available; describe the change in your plan instead`);
  const dependency = writing && p.ignored ? ignoredDependencyDir(p.ignored, jail.rel) : undefined;
  if (dependency) return no('builtin-deny:dependency-path', `${tool} refused: ${dependencyReason(target, dependency)}`);
  const allowed = p.allow.find((r) => (r.tool === tool && !r.paths) || fileRuleMatches(r, kind, jail.rel, isDir));
  if (allowed) return { behavior: 'allow', rule: `config-allow:${allowed.text}`, reason: '' };
  return { behavior: 'allow', rule: writing ? `builtin-allow:${tool} inside worktree` : `builtin-allow:${tool} read-only`, reason: '' };
}
