/*
 * A masked file's committed content, hidden from git in the sandbox. The sandbox shows a tracked
 * secret-looking file empty, but its blobs stay in the object store, where `git log -p`, `git show
 * <commit>` or `git cat-file -p <sha>` would print them. Each blob the file ever had becomes, for the
 * sandbox's git only, the empty blob: a replace ref per blob in a namespace private to the worktree
 * (`refs/worktree/…` lives in the worktree's own git dir and goes with it), read by the git the
 * sandbox runs through GIT_REPLACE_REF_BASE. The harness's own git (commits, tree hashes, diffs)
 * never sets that variable and sees the real objects.
 */
import { git } from './git.js';

/** GIT_REPLACE_REF_BASE of every command the sandbox runs. */
export const MASKED_REPLACE_BASE = 'refs/worktree/proofpr/masked/';

/** At most this many blobs are replaced (a file rewritten more often keeps its oldest versions). */
const MAX_BLOBS = 2000;

const RAW = /^:\d+ \d+ ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) /gm;

/** Every blob the tracked paths had: in the index and in the history of every ref. */
async function blobsOf(root: string, gitDir: string, tracked: readonly string[]): Promise<Set<string>> {
  const g = { cwd: root, env: { GIT_DIR: gitDir, GIT_WORK_TREE: root }, okCodes: [0, 128], timeoutMs: 60_000 };
  const specs = tracked.map((t) => `:(literal)${t}`);
  const out = new Set<string>();
  const staged = await git(['ls-files', '-s', '--', ...specs], g);
  for (const m of staged.stdout.matchAll(/^\d+ ([0-9a-f]{40,64}) /gm)) if (m[1]) out.add(m[1]);
  const log = await git(['log', '--all', '--format=', '--raw', '--no-abbrev', '--no-renames', '--', ...specs], g).catch(() => undefined);
  for (const m of log?.stdout.matchAll(RAW) ?? []) for (const sha of [m[1], m[2]]) if (sha && !/^0+$/.test(sha)) out.add(sha);
  return out;
}

/** Replaces, for the sandbox's git, every blob the tracked masked paths had by the empty blob; returns how many. */
export async function maskCommittedBlobs(root: string, gitDir: string, tracked: readonly string[]): Promise<number> {
  if (tracked.length === 0) return 0;
  const g = { cwd: root, env: { GIT_DIR: gitDir, GIT_WORK_TREE: root } };
  const blobs = [...(await blobsOf(root, gitDir, tracked))].slice(0, MAX_BLOBS);
  if (blobs.length === 0) return 0;
  const empty = (await git(['hash-object', '-w', '--', '/dev/null'], g)).stdout.trim();
  const lines = blobs.filter((b) => b !== empty).map((b) => `update ${MASKED_REPLACE_BASE}${b} ${empty}\n`);
  if (lines.length) await git(['update-ref', '--stdin'], { ...g, input: lines.join('') });
  return lines.length;
}
