import { copyFile, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TreeMismatchError, WorkspaceError } from './errors.js';
import { isControlPath, writableMatcher } from './protected-paths.js';
import { secretInFile } from './secret-file.js';
import { git } from './git.js';
import { stageAllWithReport, type LeftOut } from './temp-index.js';
import { headCommit, withCommitIndex, writeCommitObject } from './commit-object.js';

export interface CommitWorkOptions {
  worktree: string;
  message: string;
  /** The bot identity; the machine's git identity is never used. */
  identity: { name: string; email: string };
  /** "Name <email>" of the person who asked, added as a `Co-authored-by:` trailer. */
  coAuthor?: string;
  /** The tree the gates tested (evidence.finalTreeHash): the commit is refused when the worktree differs. */
  expectedTreeHash?: string;
  /** The worktree's git dir as createWorktree recorded it (Worktree.gitDir); else `.git` is read and checked. */
  gitDir?: string;
  /** Paths relative to the root left out of the commit, as given to treeHash (test reports, coverage). */
  exclude?: string[];
  /**
   * Refuse (WorkspaceError 'protected') a tree that newly tracks a secret-named file or changes a control
   * file that `writable` (permissions.writable) does not open: the last wall before anything is pushed.
   */
  protect?: { writable?: string[]; writableWorkflows?: boolean };
  /** With protect: leave such paths out of the commit (kept on disk, named in `leftOut`) instead of refusing it (WIP commits). */
  leaveOutProtected?: boolean;
}

/** `leftOut`: files git could not add (a path it refuses, an unreadable file), not in the commit; absent when none. */
export type CommitResult = { sha: string; tree: string; leftOut?: LeftOut[] } | { nothing: true; leftOut?: LeftOut[] };

const oneLine = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .regex(/^[^\r\n<>]+$/, `${what} must be one line without < or >`);
const schema = z.object({
  worktree: z.string().min(1, 'worktree must be the worktree path'),
  message: z.string().trim().min(1, 'message must not be empty'),
  identity: z.object({ name: oneLine('identity.name'), email: oneLine('identity.email') }),
  coAuthor: z
    .string()
    .regex(/^[^\r\n<>]+ <[^\r\n<>]+>$/, 'coAuthor must be "Name <email>" on one line')
    .optional(),
  expectedTreeHash: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, 'expectedTreeHash must be a tree id (hex)')
    .optional(),
  gitDir: z.string().min(1, 'gitDir must be the worktree git dir (Worktree.gitDir)').optional(),
  exclude: z.array(z.string()).optional(),
  protect: z.object({ writable: z.array(z.string()).optional(), writableWorkflows: z.boolean().optional() }).optional(),
  leaveOutProtected: z.boolean().optional(),
});

/** Paths of the tree change that the commit may not carry (see CommitWorkOptions.protect). */
async function protectedInTree(
  cwd: string,
  env: Record<string, string>,
  parentTree: string | undefined,
  tree: string,
  protect: NonNullable<CommitWorkOptions['protect']>,
): Promise<Array<{ path: string; what: string }>> {
  const from = parentTree ?? (await git(['hash-object', '-t', 'tree', '/dev/null'], { cwd, env })).stdout.trim();
  const r = await git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, tree], { cwd, env });
  const isWritable = writableMatcher(protect.writable ?? [], protect.writableWorkflows ?? false);
  const parts = r.stdout.split('\0').filter((x) => x !== '');
  const bad: Array<{ path: string; what: string }> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i] as string;
    const path = parts[i + 1] as string;
    if (isWritable(path)) continue;
    if (isControlPath(path)) bad.push({ path, what: `control file, ${status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'changed'}` });
    else if (status !== 'D') {
      const secret = secretInFile(path, join(cwd, path));
      if (secret) bad.push({ path, what: `secret: ${secret}` });
    }
  }
  return bad;
}

/**
 * The WIP commit's answer to protected paths: their index entries go back to the parent's (an added
 * file drops out), the tree is written again, and each is named as left out; the files stay on disk.
 */
async function leaveOut(
  cwd: string,
  env: Record<string, string>,
  parent: string | undefined,
  bad: ReadonlyArray<{ path: string; what: string }>,
): Promise<{ tree: string; leftOut: LeftOut[] }> {
  const paths = bad.map((b) => `:(literal)${b.path}`);
  if (parent) await git(['reset', '-q', parent, '--', ...paths], { cwd, env });
  else await git(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...paths], { cwd, env });
  const tree = (await git(['write-tree'], { cwd, env })).stdout.trim();
  const why = (what: string): string =>
    `protected path (${what}): left out of the WIP commit; only permissions.writable in .github/proofpr.yml opens it`;
  return { tree, leftOut: bad.map((b) => ({ path: b.path, why: why(b.what) })) };
}

/**
 * Commits everything in the worktree (`git add -A` semantics, as treeHash) on its current branch with
 * the given identity and a Co-authored-by trailer. Builds the tree in a temporary index, checks it
 * against expectedTreeHash, and only then writes the commit (commit-tree + update-ref: no hooks, no
 * signing), so a mismatch commits nothing and leaves the index untouched.
 */
export async function commitWork(opts: CommitWorkOptions): Promise<CommitResult> {
  const o = schema.parse(opts);
  return withCommitIndex(o.worktree, o.gitDir, async ({ env, cwd, repoEnv }) => {
    const staged = await stageAllWithReport(cwd, env, o.exclude, true);
    let { tree } = staged;
    const leftOut = [...staged.leftOut];
    const left = (): { leftOut?: LeftOut[] } => (leftOut.length > 0 ? { leftOut } : {});
    if (o.expectedTreeHash && tree !== o.expectedTreeHash) throw new TreeMismatchError(o.expectedTreeHash, tree);
    const { parent, parentTree } = await headCommit(cwd, repoEnv);
    if (tree === parentTree) return { nothing: true as const, ...left() };
    const bad = o.protect ? await protectedInTree(cwd, repoEnv, parentTree, tree, o.protect) : [];
    if (bad.length > 0 && !o.leaveOutProtected)
      throw new WorkspaceError(
        'protected',
        `refusing to commit ${bad.map((b) => `${b.path} (${b.what})`).join(', ')}: protected paths change only when permissions.writable in .github/proofpr.yml names them; nothing was committed`,
      );
    if (bad.length > 0) {
      const out = await leaveOut(cwd, env, parent, bad);
      tree = out.tree;
      leftOut.push(...out.leftOut);
      if (tree === parentTree) return { nothing: true as const, ...left() };
    }
    const { sha, identEnv: ident } = await writeCommitObject(cwd, repoEnv, { ...o, tree, parent });
    // Moves the branch HEAD points to, only if nobody moved it meanwhile (old value check).
    await git(['update-ref', '-m', `commit: ${o.message.split('\n')[0] ?? ''}`, 'HEAD', sha, parent ?? ''], { cwd, env: ident });
    // The real index now matches the commit: install the temporary one (it has the fresh stat data).
    await installIndex(cwd, repoEnv, env.GIT_INDEX_FILE ?? '');
    return { sha, tree, ...left() };
  });
}

/**
 * Same as commitWork for unverified or aborted work: "WIP (unverified): " prefix, no tree check, and a
 * protected path left out (named in `leftOut`) rather than failing the commit: no work is lost for one file.
 */
export async function wipCommit(opts: Omit<CommitWorkOptions, 'expectedTreeHash'>): Promise<CommitResult> {
  return commitWork({ ...opts, message: `WIP (unverified): ${opts.message}`, expectedTreeHash: undefined, leaveOutProtected: true });
}

/** Replaces the worktree's index with `from`, under git's own index.lock protocol. */
async function installIndex(cwd: string, env: Record<string, string>, from: string): Promise<void> {
  const index = join(env.GIT_DIR ?? join(cwd, '.git'), 'index');
  const lock = `${index}.lock`;
  try {
    await (await open(lock, 'wx')).close();
  } catch {
    await git(['reset', '--quiet'], { cwd, env, okCodes: [0, 128] }); // someone holds the index: fall back to git
    return;
  }
  try {
    await copyFile(from, lock);
    await rename(lock, index);
  } finally {
    await rm(lock, { force: true });
  }
}
