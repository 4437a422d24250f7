/**
 * `proofpr verify`'s two entries (CONTRACT §11): a local base/head pair, and a GitHub pull request (the
 * CLI's --github-repo/--pr, the App's and the Action's check `proofpr/verified`). Each makes a scratch
 * repository (scratch-repo.ts), reads the config from the base, runs verifyCommits and removes the
 * scratch; the pull request's entry can post the check run on the head sha.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRepoConfig, type RepoConfig } from '../../config/repo-config.js';
import { VERIFIED_CHECK_NAME, verifiedCheckRunFor } from '../../github/check-run.js';
import type { GitHubPort } from '../../github/port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import type { RunEvent } from '../../agent/events.js';
import type { RunTaskResult } from '../../run/run-task-types.js';
import { git } from '../../workspace/git.js';
import { localPair, pullPair, VerifyInputError, type PullPair } from './scratch-repo.js';
import { verifyCommits } from '../../run/verify-task.js';

export { VerifyInputError } from './scratch-repo.js';

/** Where a verification's run folder and worktrees go, and what it reports as it goes. */
export interface VerifyPlace {
  runId: string;
  runDir: string;
  worktreesDir: string;
  /** Parent of the scratch repository (default the system's temporary folder). */
  scratchRoot?: string;
  signal?: AbortSignal;
  onEvent?: (ev: RunEvent) => void;
}

const CONFIG_PATH = '.github/proofpr.yml';

/** The config as the base holds it (defaults when it has none): the change under test cannot loosen its own judge. */
export async function configAtBase(repoDir: string, baseSha: string): Promise<RepoConfig> {
  const r = await git(['show', `${baseSha}:${CONFIG_PATH}`], { cwd: repoDir, okCodes: [0, 128] });
  return parseRepoConfig(r.code === 0 ? r.stdout : undefined, `${CONFIG_PATH} at the base ${baseSha.slice(0, 12)}`);
}

async function inScratch<T>(place: VerifyPlace, work: (scratch: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(place.scratchRoot ?? tmpdir(), 'proofpr-verify-'));
  try {
    return await work(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

const placeFacts = (place: VerifyPlace) => ({
  runId: place.runId,
  runDir: place.runDir,
  worktreesDir: place.worktreesDir,
  ...(place.signal ? { signal: place.signal } : {}),
  ...(place.onEvent ? { onEvent: place.onEvent } : {}),
});

/** `--repo DIR --base REF --head REF`; `config` from --config, else the base's own file. */
export async function verifyLocal(
  spec: { dir: string; base: string; head: string; config?: RepoConfig },
  place: VerifyPlace,
): Promise<RunTaskResult> {
  return inScratch(place, async (scratch) => {
    const pair = await localPair(spec.dir, spec.base, spec.head, scratch);
    const config = spec.config ?? (await configAtBase(pair.repoDir, pair.baseSha));
    return verifyCommits({
      ...placeFacts(place),
      repoDir: pair.repoDir,
      baseSha: pair.baseSha,
      headSha: pair.headSha,
      config,
      title: `verify ${spec.base}..${spec.head}`,
      headName: spec.head,
      hide: pair.hide,
    });
  });
}

export interface VerifiedPull {
  result: RunTaskResult;
  pull: Omit<PullPair, 'repoDir' | 'hide'>;
  /** The check run `proofpr/verified` was created on the head sha. */
  posted: boolean;
}

/** The config of the pull request's base branch through the API (`_extends` merged), or a clear error. */
async function pullConfig(github: GitHubPort, baseRef: string): Promise<RepoConfig> {
  const loaded = await loadRepoConfig(github, baseRef);
  if (loaded.ok) return loaded.config;
  throw new VerifyInputError(`${CONFIG_PATH} on ${baseRef} is invalid: ${loaded.problems.join('; ')}`);
}

/**
 * A pull request of `github`'s repository: fetched into a scratch repository, verified with the base
 * branch's config (or `config`), and with `post` the check run `proofpr/verified` on the head sha. No
 * token reaches the run: the fetch is complete before it starts, and the run is given none.
 */
export async function verifyPullRequest(
  github: GitHubPort,
  spec: { number: number; headSha?: string; config?: RepoConfig; post: boolean },
  place: VerifyPlace,
): Promise<VerifiedPull> {
  return inScratch(place, async (scratch) => {
    const { repoDir, hide, ...pull } = await pullPair(github, spec.number, scratch, spec.headSha);
    const config = spec.config ?? (await pullConfig(github, pull.baseRef));
    const result = await verifyCommits({
      ...placeFacts(place),
      repoDir,
      baseSha: pull.baseSha,
      headSha: pull.headSha,
      config,
      title: pull.title,
      headName: pull.headRef,
      repoFullName: `${github.owner}/${github.repo}`,
      hide,
    });
    if (!spec.post) return { result, pull, posted: false };
    await github.createCheckRun({ headSha: pull.headSha, ...verifiedCheckRunFor(result.evidence, result.summaryMd) });
    return { result, pull, posted: true };
  });
}

/** A verification that could not run (the fetch failed, the config is invalid) still answers on the head: a failed check saying why. */
export async function postVerifyFailure(github: GitHubPort, headSha: string, why: string): Promise<void> {
  await github
    .createCheckRun({
      headSha,
      name: VERIFIED_CHECK_NAME,
      conclusion: 'failure',
      title: 'not verified: the verification could not run',
      summary: why,
    })
    .catch(() => undefined);
}
