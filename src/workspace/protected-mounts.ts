import { lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { maskedContent } from '../secrets/placeholder.js';
import { walkTree } from './walk-tree.js';
import { isControlPath, writableMatcher } from './protected-paths.js';
import { isSecretFile } from './secret-file.js';

export interface ProtectOptions {
  /** `permissions.writable` globs (and writable_workflows): control files left writable. */
  writable?: readonly string[];
  writableWorkflows?: boolean;
  /** Secret files a maintainer declared readable (Read(...) allow rules): not masked. */
  readable?: (rel: string) => boolean;
}

export interface ProtectedMounts {
  /** Files whose content matches a secret rule (or named by permissions.masked): maskedContent is bound over each (docs/security.md, row "secret reads"). */
  masked: string[];
  /** Control files and folders, bound read-only (row "persistence"). */
  readOnly: string[];
  /** Opted-in paths inside a read-only control folder, bound writable again. */
  writable: string[];
  /** The walk stopped at its cap: some files were not looked at. */
  truncated: boolean;
}

const CONTROL_DIRS = ['.github', '.husky', '.githooks', '.claude'];

/**
 * What the sandbox masks and binds read-only in the worktree: files holding a secret by their content
 * (src/secrets/files.ts) or named by permissions.masked, anywhere (not in node_modules or .git), control folders at the root (.github,
 * .husky, .githooks, .claude) and control files anywhere (.npmrc, .yarnrc*, .pnpmfile.cjs, .mcp.json,
 * .vscode/tasks.json, .gitmodules, .gitattributes), minus what permissions.writable opens.
 */
export function protectedMounts(root: string, opts: ProtectOptions = {}, cap = 50_000): ProtectedMounts {
  const isWritable = writableMatcher(opts.writable ?? [], opts.writableWorkflows ?? false);
  const out: ProtectedMounts = { masked: [], readOnly: [], writable: [], truncated: false };
  const inReadOnly = (abs: string): boolean => out.readOnly.some((r) => abs.startsWith(`${r}/`));
  const end = walkTree(
    root,
    ({ rel, parent, dirent: e }) => {
      const abs = join(root, rel);
      if (e.isDirectory()) {
        if (parent === '' && CONTROL_DIRS.includes(e.name)) out.readOnly.push(abs);
        else if (inReadOnly(abs) && isWritable(`${rel}/__any__`)) out.writable.push(abs);
        return;
      }
      if (!e.isFile()) return;
      if (isSecretFile(rel, abs) && !(opts.readable?.(rel) ?? false) && !isWritable(rel)) out.masked.push(abs);
      else if (isControlPath(rel) && !isWritable(rel) && !inReadOnly(abs)) out.readOnly.push(abs);
      else if (isWritable(rel) && inReadOnly(abs) && !out.writable.some((w) => abs.startsWith(`${w}/`))) out.writable.push(abs);
    },
    { cap, skip: (e) => e.name === '.git' || e.name === 'node_modules' || e.isSymbolicLink() },
  );
  out.truncated = end === 'truncated';
  return out;
}

/**
 * The placeholder bound over each masked file: one read-only file per masked path in the run's tmp,
 * holding maskedContent(rel) (the same bytes the agent's sanitized git shows for it), so a test that reads
 * it fails with a line naming the file and the opt-in. Returns [placeholder, masked file] pairs.
 */
export function maskedSources(runTmp: string, root: string, masked: readonly string[]): Array<[string, string]> {
  const dir = join(runTmp, 'masked');
  mkdirSync(dir, { recursive: true });
  return masked.map((abs, i) => {
    const p = join(dir, String(i));
    rmSync(p, { force: true });
    writeFileSync(p, maskedContent(relative(root, abs).split(sep).join('/')), { mode: 0o444 });
    return [p, abs];
  });
}

/**
 * Control folders (.github, .husky, .githooks, .claude) missing at the worktree's top: each is made as
 * an empty folder (git tracks no empty folder: the tree does not change) so the sandbox can bind it
 * read-only like an existing one; a hook a command unpacks there later (`tar -x` of `.husky/pre-commit`)
 * then cannot be written. A folder `permissions.writable` opens a path in is left alone (the commit
 * check still judges it). Returns the folders made.
 */
export function wallMissingControlDirs(root: string, opts: ProtectOptions = {}): string[] {
  const opened = [...(opts.writable ?? []), ...(opts.writableWorkflows ? ['.github/workflows/**'] : [])].map((g) =>
    g.replace(/^\.?\//, ''),
  );
  const out: string[] = [];
  for (const name of CONTROL_DIRS) {
    const abs = join(root, name);
    if (lstatSync(abs, { throwIfNoEntry: false })) continue;
    if (opened.some((g) => g === name || g.startsWith(`${name}/`) || g.startsWith('*'))) continue;
    try {
      mkdirSync(abs);
      out.push(abs);
    } catch {
      /* a read-only worktree (plan mode) or a race: the commit check still holds */
    }
  }
  return out;
}
