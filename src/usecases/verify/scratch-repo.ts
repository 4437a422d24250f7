/**
 * Where `verify` works: a scratch repository holding the base and the head, never the user's own (the
 * verification writes a worktree, a branch and the tested commit; none of it may land in the repository
 * verified). A local repository is cloned with `--shared` (its objects read in place, new ones written in
 * the scratch), its installed dependency folders linked as `run` links them; a pull request is fetched
 * from GitHub (`refs/pull/N/head`, the fork's commits included, and the base branch) into a bare scratch.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubPort } from '../../github/port.js';
import { DEPENDENCY_DIRS } from '../../workspace/dependency-dirs.js';
import { git } from '../../workspace/git.js';
import { linkDependencyDirs } from '../../workspace/linked-dirs.js';

/** Bad input to `verify` (an unknown ref, a missing pull request): the message names the flag and the fix (exit 2). */
export class VerifyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyInputError';
  }
}

/** The pair to verify, in a scratch repository. */
export interface ScratchPair {
  /** The scratch repository (a clone or a bare fetch). */
  repoDir: string;
  /** The merge base of the base ref and the head: what the change is measured against. */
  baseSha: string;
  headSha: string;
  /** Paths of the user's checkout the sandbox must hide as it hides a run's source checkout. */
  hide: string[];
}

async function revParse(cwd: string, ref: string): Promise<string | undefined> {
  const r = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd, okCodes: [0, 1, 128] });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

async function mergeBase(cwd: string, a: string, b: string, what: string): Promise<string> {
  const r = await git(['merge-base', a, b], { cwd, okCodes: [0, 1] });
  if (r.code !== 0)
    throw new VerifyInputError(`${what}: the base and the head share no history (no merge base): pass refs of one repository`);
  return r.stdout.trim();
}

async function localTop(dir: string): Promise<{ top: string; common: string }> {
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: dir, okCodes: [0, 128] });
  const common = await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: dir, okCodes: [0, 128] });
  if (common.code !== 0) throw new VerifyInputError(`--repo ${dir} is not a git repository: pass a clone of the repository to verify`);
  return { top: top.code === 0 ? top.stdout.trim() : '', common: common.stdout.trim() };
}

/**
 * `--repo DIR --base REF --head REF`: both refs resolved in DIR, DIR cloned (shared) into `scratch`,
 * DIR's installed dependency folders linked at the clone's top so the worktree links them in turn.
 */
export async function localPair(dir: string, base: string, head: string, scratch: string): Promise<ScratchPair> {
  const { top, common } = await localTop(dir);
  const baseRef = await revParse(dir, base);
  if (!baseRef) throw new VerifyInputError(`--base ${base}: no such commit in ${dir} (a branch, tag or sha of the base)`);
  const headSha = await revParse(dir, head);
  if (!headSha) throw new VerifyInputError(`--head ${head}: no such commit in ${dir} (a branch, tag or sha of the change)`);
  const repoDir = join(scratch, 'repo');
  await git(['clone', '--quiet', '--shared', '--no-checkout', '--', common, repoDir], { cwd: scratch });
  if (top) await linkDependencyDirs(top, repoDir, join(repoDir, '.git'), DEPENDENCY_DIRS);
  const baseSha = await mergeBase(repoDir, baseRef, headSha, `--base ${base} --head ${head}`);
  const hide = top ? [await realpath(top), await realpath(common)] : [await realpath(common)];
  return { repoDir, baseSha, headSha, hide };
}

/** A pull request as `verify` needs it. */
export interface PullPair extends ScratchPair {
  number: number;
  title: string;
  baseRef: string;
  headRef: string;
  /** The head repository differs from the base's: a fork. */
  fork: boolean;
}

/**
 * `--github-repo OWNER/NAME --pr N` (and the App's and the Action's checks): the pull request through the
 * API, its head (`refs/pull/N/head`, which holds a fork's commits too) and its base branch fetched from the
 * repository's git URL into a bare scratch repository. The head is the sha the API (or the event) named.
 */
export async function pullPair(github: GitHubPort, number: number, scratch: string, eventHeadSha?: string): Promise<PullPair> {
  const pr = await github.getPullRequest(number);
  if (!pr)
    throw new VerifyInputError(`--pr ${number}: no such pull request in ${github.owner}/${github.repo} (or the token cannot read it)`);
  const { url, token } = await github.gitAccess();
  const repoDir = join(scratch, 'repo.git');
  await git(['init', '--quiet', '--bare', repoDir], { cwd: scratch });
  const refs = [`+refs/heads/${pr.baseRef}:refs/verify/base`, `+refs/pull/${number}/head:refs/verify/head`];
  await git(['fetch', '--quiet', '--no-tags', '--', url, ...refs], { cwd: repoDir, token });
  const wanted = eventHeadSha ?? pr.headSha;
  const headSha = wanted && (await revParse(repoDir, wanted)) ? wanted : await revParse(repoDir, 'refs/verify/head');
  if (!headSha) throw new VerifyInputError(`--pr ${number}: its head could not be fetched from ${github.owner}/${github.repo}`);
  const baseSha = await mergeBase(repoDir, 'refs/verify/base', headSha, `--pr ${number}`);
  const self = `${github.owner}/${github.repo}`.toLowerCase();
  return {
    repoDir,
    baseSha,
    headSha,
    hide: [],
    number,
    title: pr.title ?? `pull request #${number}`,
    baseRef: pr.baseRef,
    headRef: pr.headRef,
    fork: pr.headRepo !== undefined && pr.headRepo.toLowerCase() !== self,
  };
}
