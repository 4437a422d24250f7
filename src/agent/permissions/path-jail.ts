import { resolveInRoot, type RootRefusal } from '../../workspace/resolve-in-root.js';
import { protectedWriteReason, writableMatcher } from '../../workspace/protected-paths.js';
import { isSecretFile } from '../../workspace/secret-file.js';

export interface JailOptions {
  /** Git directories outside the worktree (a worktree's gitdir and common dir): never readable or writable. */
  gitDirs?: readonly string[];
  /** 'read' refuses secret files; 'write' refuses secret and control files unless opted in. Absent: only the jail. */
  access?: 'read' | 'write';
  /** `permissions.writable_workflows` (kept for older configs; `permissions.writable` is the general form). */
  writableWorkflows?: boolean;
  /** The opt-in of `permissions.writable` (see writableMatcher); wins over writableWorkflows when given. */
  isWritable?: (rel: string) => boolean;
  /** Secret files a maintainer declared readable (a `Read(...)` allow rule names them, e.g. test fixture keys). */
  secretExempt?: (rel: string) => boolean;
  /** Directory relative paths are resolved against (default: root). */
  cwd?: string;
  /** Accept paths in the linked dependency folders (read-only; never with access 'write'). Default: access is 'read'. */
  linked?: boolean;
}

export type JailResult = { ok: true; abs: string; rel: string; linked?: true } | { ok: false; reason: string };

const workflowsOnly = writableMatcher([], true);
const nothing = writableMatcher([], false);

function refusal(p: string, r: RootRefusal): string {
  switch (r.why) {
    case 'empty':
      return 'the path is empty';
    case 'nul':
      return `path "${p}" contains a NUL byte`;
    case 'home':
      return `path "${p}" is in a home directory, outside the worktree`;
    case 'climb':
      return `path "${p}" climbs with ".." out of a directory that does not exist`;
    case 'loop':
      return `path "${p}" goes through too many symlinks`;
    case 'git':
      return `path "${p}" is inside .git or git's own directory, which no tool may read or write; inspect git only through allowed git commands (git status, git diff, git log)`;
    case 'outside':
      return `path "${p}" resolves to ${r.abs}, outside the worktree (symlinks, dangling ones included, and ".." are followed)`;
  }
}

/** A secret-looking file by path or content (the one check, src/workspace/secret-file.ts). */
export { isSecretFile };

/**
 * Resolve `p` (absolute, or relative to cwd/root) with the one resolver the file tools use too, and
 * require it to stay inside `root` (symlinks followed, dangling ones included). `.git` internals are
 * refused for reading and writing; secret files for both; control files for writing unless opted in.
 * A linked dependency folder (node_modules from the dependency cache) is readable, never writable.
 * `root` must already be a realpath.
 */
export function resolveInside(root: string, p: string, opts: JailOptions = {}): JailResult {
  const linked = opts.access !== 'write' && (opts.linked ?? opts.access === 'read');
  const r = resolveInRoot(root, p, {
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(opts.gitDirs ? { gitDirs: opts.gitDirs } : {}),
    linked,
  });
  if (!r.ok) return { ok: false, reason: refusal(p, r) };
  if (opts.access === 'write') {
    const why = protectedWriteReason(r.rel, opts.isWritable ?? (opts.writableWorkflows ? workflowsOnly : nothing));
    if (why) return { ok: false, reason: `path "${p}": ${why}` };
  }
  // A masked file (its content matches a secret rule) is neither read nor overwritten by a tool.
  if (opts.access !== undefined && r.rel !== '' && isSecretFile(r.rel, r.abs) && !(opts.secretExempt?.(r.rel) ?? false)) {
    return {
      ok: false,
      reason: `path "${p}" is masked: its content matches a secret rule (a key, a token, a credential file's password), so no tool reads or writes it, and inside the sandbox it holds a placeholder; a maintainer can opt it in with permissions.readable in .github/proofpr.yml`,
    };
  }
  return r;
}
