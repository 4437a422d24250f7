import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  /** Secret files: an empty read-only file is bound over each (docs/security.md, row "secret reads"). */
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
 * What the sandbox masks and binds read-only in the worktree: secret files (.env*, private keys, token
 * files with a token) anywhere (not in node_modules or .git), control folders at the root (.github,
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

/** The empty file bound over masked secrets (created once per run folder). */
export function emptyFile(runTmp: string): string {
  const p = join(runTmp, 'masked-empty');
  writeFileSync(p, '', { mode: 0o444 });
  return p;
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
