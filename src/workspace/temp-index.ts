import { mkdtemp, rm, copyFile, realpath, rename, stat, utimes, mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { git } from './git.js';
import { leftOutByRule, type LeftOut } from './commit-filter.js';
import { gitPathProblem } from './git-path-rules.js';
import { readLinkedDirs } from './linked-dirs.js';
import { privateStore } from './private-objects.js';
import { resolveWorktreeGitDir, worktreeGitEnv } from './worktree-git-dir.js';

/** The worktree's own git dir, checked (see readWorktreeGitDirs): a rewritten `.git` pointer throws. */
export async function gitDirOf(root: string): Promise<string> {
  return (await resolveWorktreeGitDir(root)).gitDir;
}

/** The env keys of the private object store (withTempIndex); removed to reach the repository's own store. */
const PRIVATE_OBJECT_KEYS = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES'] as const;

/**
 * Runs `fn` with GIT_INDEX_FILE pointing at a throw-away copy of the worktree's index (a copy keeps
 * git's stat cache, so `git add -A` only rehashes files that changed), and GIT_DIR / GIT_WORK_TREE
 * pinning every git call made with that env to this worktree. `gitDir` is the one createWorktree
 * recorded; without it `<root>/.git` is read once and checked. The real index is never touched.
 *
 * Objects written with that env (the blobs of `git add`, the trees of `write-tree`, a `commit-tree`)
 * go to the worktree's private object store (private-objects.ts; GIT_OBJECT_DIRECTORY), with the
 * repository's store as an alternate to read from: the worktree's content never lands in the
 * repository's shared store, and is removed with the worktree. Only what is committed is copied there
 * (keepObjects, called by commitWork and snapshotCommit before a ref or a later step needs it).
 */
export async function withTempIndex<T>(root: string, fn: (env: Record<string, string>) => Promise<T>, gitDir?: string): Promise<T> {
  const realRoot = await realpath(root);
  const dir = gitDir ?? (await gitDirOf(realRoot));
  const tmp = await mkdtemp(join(tmpdir(), 'proofpr-idx-'));
  const index = join(tmp, 'index');
  try {
    const real = join(dir, 'index');
    await copyFile(real, index).catch(() => undefined);
    // Keep the real index's mtime: git trusts a cached stat only for files older than the index
    // ("racy git"), so a fresh mtime on the copy would hide a same-size edit made in the same second.
    await stat(real)
      .then((st) => utimes(index, st.atime, st.mtime))
      .catch(() => undefined);
    const objects = await privateStore(realRoot, dir);
    const shared = await repositoryObjects(realRoot, dir);
    return await fn({
      ...worktreeGitEnv(realRoot, dir),
      GIT_INDEX_FILE: index,
      GIT_OBJECT_DIRECTORY: objects,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: shared,
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The repository's object store of a worktree's git dir (`<common dir>/objects`), as git resolves it. */
async function repositoryObjects(root: string, gitDir: string): Promise<string> {
  const r = await git(['rev-parse', '--git-path', 'objects'], { cwd: root, env: worktreeGitEnv(root, gitDir) });
  const p = r.stdout.trim();
  return isAbsolute(p) ? p : join(root, p);
}

/** `env` without the private object store: git calls with it read and write the repository's own store. */
export function sharedObjectsEnv(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const k of PRIVATE_OBJECT_KEYS) delete out[k];
  // Set, and empty: git.ts then does not add the private store back for a read.
  out.GIT_ALTERNATE_OBJECT_DIRECTORIES = '';
  return out;
}

/**
 * Copies into the repository's store the objects of `commit` that only the private store holds (the
 * commit, its new trees and blobs; nothing reachable from `parent`): loose ones as files, packed ones
 * (git packs a blob over core.bigFileThreshold at once) with pack-objects. A no-op without a private store.
 */
export async function keepObjects(cwd: string, env: Record<string, string>, commit: string, parent?: string): Promise<void> {
  const priv = env.GIT_OBJECT_DIRECTORY;
  const shared = env.GIT_ALTERNATE_OBJECT_DIRECTORIES;
  if (!priv || !shared) return;
  const list = await git(['rev-list', '--objects', commit, ...(parent ? ['--not', parent] : [])], { cwd, env });
  const ids = [
    ...new Set(
      list.stdout
        .split('\n')
        .map((l) => l.split(' ')[0] ?? '')
        .filter((x) => /^[0-9a-f]{40,64}$/.test(x)),
    ),
  ];
  const packed: string[] = [];
  for (const id of ids) {
    const from = join(priv, id.slice(0, 2), id.slice(2));
    const to = join(shared, id.slice(0, 2), id.slice(2));
    const part = `${to}.${process.pid}.tmp`;
    try {
      await mkdir(join(shared, id.slice(0, 2)), { recursive: true });
      await copyFile(from, part);
      await rename(part, to); // whole or not at all, for a reader of the shared store
    } catch (e) {
      await rm(part, { force: true });
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') packed.push(id);
      else throw e;
    }
  }
  const packs = await readdir(join(priv, 'pack')).catch(() => [] as string[]);
  if (packed.length === 0 || !packs.some((f) => f.endsWith('.pack'))) return;
  const check = await git(['cat-file', '--batch-check=%(objectname)'], {
    cwd,
    env: sharedObjectsEnv(env),
    input: packed.join('\n') + '\n',
  });
  const missing = check.stdout
    .split('\n')
    .filter((l) => l.endsWith(' missing'))
    .map((l) => l.split(' ')[0] ?? '');
  if (missing.length === 0) return;
  await mkdir(join(shared, 'pack'), { recursive: true });
  await git(['pack-objects', '-q', join(shared, 'pack', 'pack')], { cwd, env, input: missing.join('\n') + '\n' });
}

/** Exclude entries as literal pathspecs relative to the root; entries outside the worktree are dropped. */
export function literalPathspecs(root: string, exclude: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of exclude) {
    let p = isAbsolute(raw) ? relative(root, raw) : raw;
    p = p
      .replace(/\\/g, '/')
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '');
    if (!p || p === '.' || p.split('/').includes('..')) continue;
    out.push(`:(literal)${p}`);
  }
  return out;
}

export type { LeftOut };

/**
 * `git add -A` (honouring .gitignore) into the index in `env`, leaving out `exclude` (paths relative to
 * the root: test reports, coverage) and the dependency links createWorktree made: those are reset to
 * HEAD afterwards (an untracked one drops out, a tracked one keeps its committed version). Not
 * `:(exclude)` pathspecs: git refuses those when they name an ignored path.
 *
 * What no tree of the harness may hold (commit-filter.ts: a path git refuses, a file over GitHub's size
 * bound, a file HEAD's ignore rules ignore) is kept out of the `add` by exclude pathspecs (those files
 * are not ignored by the worktree's rules, so git takes them) and returned with the reason, in every
 * mode: tree hashes, diffs and commits then agree, and such a file never fails them.
 *
 * With `lenient` (the commits), a file git still cannot add (a file it cannot read) never fails the
 * staging: `--ignore-errors` adds the rest, and the files still out of the index are returned. Without it
 * (tree hashes, diffs) such a file fails the call, as git does: the tree the verifier tests is then
 * never one that silently lacks a readable file on disk.
 */
export async function stageAll(
  root: string,
  env: Record<string, string>,
  exclude: readonly string[] = [],
  lenient = false,
): Promise<LeftOut[]> {
  const realRoot = env.GIT_WORK_TREE ?? (await realpath(root));
  const names = env.GIT_DIR ? (await readLinkedDirs(env.GIT_DIR)).map((l) => l.name) : [];
  const byRule = await leftOutByRule(realRoot, env);
  const spec = ['.', ...byRule.map((l) => `:(exclude,literal)${l.path}`)];
  const add = await git(['add', '-A', ...(lenient ? ['--ignore-errors'] : []), '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: realRoot,
    env,
    input: spec.join('\0') + '\0',
    okCodes: lenient ? [0, 1] : [0],
  });
  const ruled = new Set(byRule.map((l) => l.path));
  const leftOut = add.code === 1 ? (await notAdded(realRoot, env)).filter((l) => !ruled.has(l.path)) : [];
  const out = literalPathspecs(realRoot, [...exclude, ...names]);
  if (out.length) await git(['reset', '-q', '--', ...out], { cwd: realRoot, env });
  return [...byRule, ...leftOut];
}

/** After `add -A --ignore-errors` failed on some files: the files whose worktree state is still not in the index. */
async function notAdded(cwd: string, env: Record<string, string>): Promise<LeftOut[]> {
  const z = (text: string): string[] => text.split('\0').filter((x) => x !== '');
  const untracked = await git(['ls-files', '-z', '--others', '--exclude-standard'], { cwd, env });
  const changed = await git(['diff', '--name-only', '-z', '--no-renames'], { cwd, env });
  const paths = [...new Set([...z(untracked.stdout), ...z(changed.stdout)])].sort();
  return paths.map((path) => {
    const why = gitPathProblem(path);
    return { path, why: why ? `git refuses this path: ${why}` : 'git could not add this file (unreadable, or not a regular file)' };
  });
}

/** Stages everything (stageAll) into the given index and returns its tree. */
export async function stageAllAndWriteTree(root: string, env: Record<string, string>, exclude: readonly string[] = []): Promise<string> {
  return (await stageAllWithReport(root, env, exclude)).tree;
}

/** stageAllAndWriteTree, also naming the files left out of the tree (stageAll, `lenient`). */
export async function stageAllWithReport(
  root: string,
  env: Record<string, string>,
  exclude: readonly string[] = [],
  lenient = false,
): Promise<{ tree: string; leftOut: LeftOut[] }> {
  const leftOut = await stageAll(root, env, exclude, lenient);
  const { stdout } = await git(['write-tree'], { cwd: env.GIT_WORK_TREE ?? root, env });
  return { tree: stdout.trim(), leftOut };
}
