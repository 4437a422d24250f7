import { lstat, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { WorkspaceError } from './errors.js';
import { git } from './git.js';
import { dependencyLinkTargets } from './dependency-link-targets.js';
import { installedDependencyDirs, readLinkedDirs } from './linked-dirs.js';
import { commonDirOf, readWorktreeGitDirs, readWorktreeGitDirsSync } from './worktree-git-dir.js';
import { makeAgentGit } from './agent-git.js';
import type { SandboxOptions } from './sandbox.js';
import { inSystemDir, mayMountToolchainDir } from './sandbox-system.js';
import { linkedToolchainDirs } from './linked-toolchains.js';
import { maskedSources, protectedMounts, wallMissingControlDirs, type ProtectOptions } from './protected-mounts.js';

export interface MountInput {
  root: string;
  /** Per-run scratch folder (not visible writable inside the sandbox); the sanitized git config goes here. */
  runTmp: string;
  /** The worktree's git dir (Worktree.gitDir); else `<root>/.git` is read and checked. */
  gitDir?: string;
  hidePaths?: readonly string[];
  /** PATH of the children: its folders under a hidden path stay visible (tools installed in the home). */
  pathEnv?: string;
  /** Secret files masked and control files bound read-only inside the worktree (see protected-mounts.ts). */
  protect?: ProtectOptions;
  /** Where the agent's sanitized git stores are cached between runs (agent-git.ts); default: the run's own folder. */
  agentGitCache?: string;
}

const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(dir === sep ? dir : dir + sep);

/**
 * What the sandbox hides and re-shows: each existing hide path other than `/` (a folder gets an empty tmpfs, a file
 * /dev/null); in place of the worktree's git dir, the agent's private git (agent-git.ts: a sanitized copy
 * of the base and its recent history, its config holding format settings only, an exclude naming the
 * dependency links) with the sanitized store it reads read-only, and neither real git dir mounted; the
 * linked dependency folders; PATH folders (and their install prefix) under a hidden path.
 */
export async function sandboxMounts(input: MountInput): Promise<
  Pick<SandboxOptions, 'hide' | 'readOnly' | 'overlays' | 'writable' | 'scratchBinds' | 'ensureDirs' | 'agentGit' | 'pinnedDirs'> & {
    masked: string[];
    checkoutGit?: CheckoutGit;
  }
> {
  const hide: string[] = [];
  const overlays: Array<[string, string]> = [];
  const readOnly: string[] = [];
  for (const raw of input.hidePaths ?? []) {
    if (!raw.startsWith('/')) throw new WorkspaceError('bad-input', `hidePaths entry '${raw}' must be an absolute path`);
    const p = await realpath(raw).catch(() => undefined);
    // Missing paths, and `/` (a HOME of `/` in some containers), hide nothing.
    if (!p || p === '/') continue;
    if ((await stat(p)).isDirectory()) hide.push(p);
    else overlays.push(['/dev/null', p]);
  }
  const dirs = input.gitDir
    ? { gitDir: await realpath(input.gitDir), commonDir: await commonDirOf(await realpath(input.gitDir)) }
    : await readWorktreeGitDirs(input.root);
  const linkExcludes = dirs ? await linkedDirMounts(dirs.gitDir, readOnly) : [];
  // The sandbox mounts only what it names (sandbox-system.ts): the toolchains PATH names outside the
  // system folders are named here, each with its install prefix.
  for (const entry of [...(input.pathEnv ?? '').split(':'), dirname(process.execPath)]) {
    if (!entry.startsWith('/')) continue;
    const p = await realpath(entry).catch(() => undefined);
    if (!p || inSystemDir(p) || inside(p, input.root) || !mayMountToolchainDir(p, false)) continue;
    readOnly.push(p);
    // The folder above which a prefix may not reach: the hidden path it is under (a home), else `/`.
    const under = hide.find((h) => inside(p, h)) ?? sep;
    const prefix = dirname(p);
    // ~/.nvm/versions/node/v20/bin, /opt/hostedtoolcache/node/20/x64/bin → the prefix (lib/ holds npm);
    // ~/.cargo/bin alone (~/.cargo holds credentials).
    if (!mayMountToolchainDir(prefix, true)) continue;
    if (basename(p) === 'bin' && relative(under, prefix).split(sep).length >= 2) readOnly.push(prefix);
    // A version manager's shims (~/.pyenv/shims, ~/.rbenv/shims, ~/.asdf/shims) exec its own root, where the versions live.
    else if (basename(p) === 'shims' && prefix !== under) readOnly.push(prefix);
  }
  // Programs in those folders (and in /usr/bin) that are links to a tree the sandbox does not mount.
  const pathDirs = (input.pathEnv ?? '').split(':').filter((d) => d.startsWith('/'));
  readOnly.push(...(await linkedToolchainDirs(pathDirs, [input.root, ...readOnly])));
  const p = protectedMounts(input.root, input.protect);
  if (p.masked.length > 0) overlays.push(...maskedSources(input.runTmp, input.root, p.masked));
  const git = dirs ? await agentGitMounts(input, dirs, p.masked, linkExcludes, readOnly) : undefined;
  readOnly.push(...p.readOnly);
  const ensureDirs = input.protect ? wallMissingControlDirs(input.root, input.protect) : [];
  readOnly.push(...ensureDirs);
  if (input.protect) {
    for (const d of await installedDependencyDirs(input.root)) readOnly.push(d, ...(await dependencyLinkTargets(d)));
  }
  const scratchBinds = await toolCaches(readOnly, input.runTmp);
  const pinnedDirs = foldersAbove(input.root, p.masked, readOnly);
  return {
    hide,
    readOnly,
    overlays,
    writable: p.writable,
    scratchBinds,
    ensureDirs,
    masked: p.masked,
    pinnedDirs,
    ...(git ? { agentGit: git.agentGit } : {}),
    ...(git?.checkoutGit ? { checkoutGit: git.checkoutGit } : {}),
  };
}

/** The linked dependency folders (and what they link to) read-only; returns their exclude lines for the agent's git. */
async function linkedDirMounts(gitDir: string, readOnly: string[]): Promise<string[]> {
  // `node_modules/` in .gitignore does not match a symlink: the links are excluded in the agent's git.
  const excludes: string[] = [];
  for (const l of await readLinkedDirs(gitDir)) {
    excludes.push(`/${l.name}`);
    if (!(await stat(l.target).catch(() => undefined))) continue;
    readOnly.push(l.target, ...(await dependencyLinkTargets(l.target)));
  }
  return excludes;
}

/**
 * The agent's private git (agent-git.ts), to be bound at the worktree's git dir, and its sanitized store
 * read-only; the masked tracked files marked skip-worktree in the real index (unchangedForGit).
 */
async function agentGitMounts(
  input: MountInput,
  dirs: { gitDir: string; commonDir: string },
  masked: readonly string[],
  exclude: string[],
  readOnly: string[],
): Promise<{ agentGit: [string, string]; checkoutGit?: CheckoutGit }> {
  if (masked.length > 0) await unchangedForGit(input.root, dirs.gitDir, masked);
  const a = await makeAgentGit({
    root: input.root,
    ...dirs,
    masked: masked.map((m) => relative(input.root, m).split(sep).join('/')),
    runTmp: input.runTmp,
    cacheDir: input.agentGitCache ?? join(input.runTmp, 'agent-git-cache'),
    exclude,
  });
  if (a.store) readOnly.push(a.store);
  const checkoutGit = a.checkoutGitDir
    ? { gitDir: a.checkoutGitDir, worktrees: join(dirs.commonDir, 'worktrees'), own: dirs.gitDir }
    : undefined;
  return { agentGit: [a.gitDir, dirs.gitDir], ...(checkoutGit ? { checkoutGit } : {}) };
}

/**
 * The git a clean checkout of this repository shows inside the sandbox (a harness test run's cwd): the
 * read-only sanitized git dir, bound at the checkout's own git dir (a worktree under `worktrees`, or a
 * clone that borrows the repository's objects), never the real one.
 */
export interface CheckoutGit {
  gitDir: string;
  worktrees: string;
  /** The agent's worktree's git dir (it has its own). */
  own: string;
}

/** The [source, destination] bind that gives the checkout at `dir` its git inside the sandbox, if it is a checkout of this repository. */
export function checkoutGitBind(c: CheckoutGit | undefined, dir: string): [string, string] | undefined {
  if (!c) return undefined;
  let gitDir: string;
  try {
    gitDir = readWorktreeGitDirsSync(dir)?.gitDir ?? '';
  } catch {
    return undefined;
  }
  if (!gitDir || gitDir === c.own) return undefined;
  if (dirname(gitDir) === c.worktrees) return [c.gitDir, gitDir];
  // A clone sharing the repository's objects (doctor's `git clone --shared`): its own .git borrows them.
  return borrowsFrom(gitDir, join(dirname(c.worktrees), 'objects')) ? [c.gitDir, gitDir] : undefined;
}

/** Does the git dir `gitDir` read objects from `objects` through its alternates? */
function borrowsFrom(gitDir: string, objects: string): boolean {
  try {
    const lines = readFileSync(join(gitDir, 'objects', 'info', 'alternates'), 'utf8').split('\n');
    const want = realpathSync(objects);
    return lines.some((l) => {
      const p = l.trim();
      if (!p || p.startsWith('#')) return false;
      try {
        return realpathSync(isAbsolute(p) ? p : join(gitDir, 'objects', p)) === want;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * The masked files that git tracks are marked skip-worktree in the worktree's real index (private to the
 * worktree, removed with it; the sandbox never sees it, its git is the agent's own). The harness's
 * commits and tree hashes start from a copy of that index, and `git add -A` leaves a skip-worktree entry
 * as it is: a masked path is always committed as the base has it, whatever the agent's world showed or
 * did around it (the placeholder exists only inside the sandbox; a folder renamed around a masked file
 * does not delete it from the commit). A masked file cannot change in the sandbox (it is bound read-only).
 */
async function unchangedForGit(root: string, gitDir: string, masked: readonly string[]): Promise<void> {
  const rels = masked.map((m) => relative(root, m));
  const g = { cwd: root, env: { GIT_DIR: gitDir, GIT_WORK_TREE: root }, okCodes: [0, 1, 128] };
  for (let i = 0; i < rels.length; i += 500) {
    const part = rels.slice(i, i + 500).map((r) => `:(literal)${r}`);
    const tracked = (await git(['ls-files', '-z', '--', ...part], g)).stdout.split('\0').filter(Boolean);
    if (tracked.length) await git(['update-index', '--skip-worktree', '--', ...tracked], g);
  }
}

/**
 * The folders between the worktree root and each masked file (SandboxOptions.pinnedDirs): a rename of
 * one would carry the real file to a path the harness does not map back (the rename happens on the
 * host too). Not those inside or equal to a read-only path: they cannot be renamed, and a bind there
 * would make them writable again.
 */
function foldersAbove(root: string, masked: readonly string[], readOnly: readonly string[]): string[] {
  const out = new Set<string>();
  for (const m of masked) {
    for (let d = dirname(m); d !== root && inside(d, root); d = dirname(d)) {
      if (readOnly.some((r) => inside(d, r))) continue;
      out.add(d);
    }
  }
  return [...out];
}

/** Folders tools write into inside `node_modules` (vitest/vite bundle their config into `.vite-temp`, loaders cache in `.cache`). */
const TOOL_CACHES = ['.cache', '.vite-temp', '.vite'];

/**
 * A read-only `node_modules` breaks tools that write their caches inside it (vitest's config loader
 * fails at start). Each such folder gets a fresh writable folder of the run bound over it: what the
 * tools write there is the run's own and is gone with it; the packages stay read-only. The mount
 * point is created in the real folder when missing (an empty folder, outside the sandbox). The run's
 * folder starts with the real one's sub-folders (no files): a tool that made its cache folder at install
 * time writes into it without making it again (xo's `xo-linter/`), as it would under the plain command,
 * and no cached content from outside the run reaches it.
 */
async function toolCaches(readOnly: readonly string[], runTmp: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  const modules = [...new Set(readOnly.filter((d) => basename(d) === 'node_modules'))];
  for (const [i, nm] of modules.entries()) {
    for (const sub of TOOL_CACHES) {
      const dest = join(nm, sub);
      const there = await mkdir(dest, { recursive: true }).then(
        () => true,
        () => false,
      );
      if (!there || !(await lstat(dest).catch(() => undefined))?.isDirectory()) continue;
      const src = join(runTmp, 'tool-caches', String(i), sub);
      await mkdir(src, { recursive: true });
      await mirrorFolders(dest, src, { left: 2000 });
      out.push([src, dest]);
    }
  }
  return out;
}

/** The sub-folders of `from` (not through symlinks, at most `budget.left` of them) made again under `to`, empty of files. */
export async function mirrorFolders(from: string, to: string, budget: { left: number }): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory() || budget.left <= 0) continue;
    budget.left -= 1;
    await mkdir(join(to, e.name), { recursive: true });
    await mirrorFolders(join(from, e.name), join(to, e.name), budget);
  }
}
