/*
 * What `git add -A` may take into a tree the harness makes (tree hashes, diffs, the tested snapshot, the
 * verified and WIP commits): one decision for all of them, so they always agree (docs/security.md,
 * "what the commit can hold"). A file the worktree holds is left out, named with the reason, when
 * - git refuses its path (git-path-rules.ts: git's verify_path with core.protectNTFS and core.protectHFS
 *   on; the harness's git calls run with both on too, harness-git-env.ts);
 * - it is over GitHub's per-file bound (100 MiB: a push holding it is refused), measured with lstat, so a
 *   sparse file is never read;
 * - it was not tracked and the ignore rules of HEAD (the base; the commit's parent) ignore it: an agent
 *   that deletes or edits a `.gitignore` never lets an ignored file in. The worktree's current rules
 *   still apply on top (git's own walk), so a rule the agent adds keeps its files out too.
 */
import { lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { git } from './git.js';
import { gitPathProblem } from './git-path-rules.js';

/** A file `git add` could not or may not put in the index, and why (the commits and the evidence name it). */
export interface LeftOut {
  path: string;
  why: string;
}

/** GitHub refuses a push holding a file larger than this (100 MiB). */
export const MAX_COMMIT_FILE_BYTES = 100 * 1024 * 1024;

const z = (text: string): string[] => text.split('\0').filter((x) => x !== '');

/**
 * The files `git add -A` in `env` (a temporary index over the worktree `cwd`) would take that the
 * commit leaves out (see the header). Paths are worktree-relative, as git lists them.
 */
export async function leftOutByRule(cwd: string, env: Record<string, string>): Promise<LeftOut[]> {
  const untracked = z((await git(['ls-files', '-z', '--others', '--exclude-standard'], { cwd, env })).stdout);
  const modified = z((await git(['ls-files', '-z', '--modified'], { cwd, env })).stdout);
  const out: LeftOut[] = [];
  const fresh: string[] = [];
  for (const path of untracked) {
    // `dir/`: a nested repository (git lists it, not its files); git add decides about it as before.
    if (path.endsWith('/')) continue;
    const why = gitPathProblem(path);
    if (why) out.push({ path, why: `git refuses this path: ${why}` });
    else fresh.push(path);
  }
  const big = new Set<string>();
  for (const path of [...fresh, ...modified]) {
    const st = await lstat(join(cwd, path)).catch(() => undefined);
    if (st?.isFile() && st.size > MAX_COMMIT_FILE_BYTES && !big.has(path)) {
      big.add(path);
      out.push({ path, why: `${mib(st.size)} MiB, over GitHub's 100 MiB per-file limit (a push holding it is refused)` });
    }
  }
  const ignoreChanged = [...untracked, ...modified].some((p) => posix.basename(p) === '.gitignore');
  const candidates = fresh.filter((p) => !big.has(p));
  if (ignoreChanged && candidates.length > 0) {
    for (const path of await ignoredByHeadRules(cwd, env, candidates))
      out.push({
        path,
        why: 'ignored by the base commit\u2019s .gitignore rules (an ignore rule removed or changed in the worktree does not let it in)',
      });
  }
  return out;
}

const mib = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1);

/**
 * Which of `paths` (untracked files) HEAD's ignore rules ignore, as git itself decides it: HEAD's
 * `.gitignore` files are checked out into a scratch folder (their own index), and `git check-ignore`
 * answers with that folder as the work tree, the repository's `info/exclude` included.
 */
async function ignoredByHeadRules(cwd: string, env: Record<string, string>, paths: readonly string[]): Promise<string[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'proofpr-ign-'));
  try {
    const e = { ...env, GIT_WORK_TREE: scratch, GIT_INDEX_FILE: join(scratch, '.index') };
    const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd, env, okCodes: [0, 1, 128] });
    if (head.code !== 0) return [];
    // Exit 1 when HEAD has no .gitignore: then only info/exclude applies.
    await git(['checkout', 'HEAD', '--', ':(glob)**/.gitignore'], { cwd: scratch, env: e, okCodes: [0, 1] });
    const r = await git(['check-ignore', '-z', '--stdin', '--no-index'], {
      cwd: scratch,
      env: e,
      input: paths.join('\0') + '\0',
      okCodes: [0, 1],
    });
    return z(r.stdout);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
