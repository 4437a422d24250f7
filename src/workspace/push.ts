import type { Logger } from 'pino';
import { z } from 'zod';
import { WorkspaceError } from './errors.js';
import { GitError, git, resolveCommit, scrub } from './git.js';
import { remoteError } from './remote-errors.js';
import { logger as rootLogger } from '../log.js';

export interface PushBranchOptions {
  /** Any repository holding refs/heads/<branch> (the mirror or the worktree). */
  repoDir: string;
  /** Pushed to directly (never added as a remote); must not carry credentials. */
  remoteUrl: string;
  /** Must be proofpr/…; anything else is refused. */
  branch: string;
  /** Sent as an http.extraheader for this one command only. */
  token?: string;
  /**
   * With ownBranch: where proofpr last left the remote branch (null: it must not exist yet). The push
   * then uses --force-with-lease=<ref>:<expected>; undefined means a plain fast-forward push.
   */
  expectedRemoteSha?: string | null;
  /** True only for a branch proofpr created for the same issue (re-runs may then replace it). */
  ownBranch: boolean;
  /**
   * The commit to push (the headSha commitWork returned). The push then sends exactly this commit to
   * refs/heads/<branch>, whatever the local branch points at by now. Default: the local branch tip.
   */
  sha?: string;
  /**
   * Unverified work: push `sha` to this ref under refs/proofpr/wip/ instead of the branch. No workflow
   * starts on that namespace (only branch and tag pushes trigger `on: push`), so unverified, possibly
   * prompt-injected work never runs in CI. The ref must not exist yet (a lease on "absent").
   */
  wipRef?: string;
  logger?: Logger;
}

/** refs/proofpr/wip/<run-id>: where unverified work is kept (CONTRACT §10 `wipRef`). */
export function wipRefFor(runId: string): string {
  return `refs/proofpr/wip/${runId}`;
}

/** The one command a maintainer runs to look at the work kept under `wipRef` (named in every comment that names the ref). */
export function wipFetchCommand(wipRef: string): string {
  return `git fetch origin ${wipRef}:proofpr-wip-${wipRef.slice('refs/proofpr/wip/'.length)}`;
}

const WIP_REF = /^refs\/proofpr\/wip\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

const schema = z.object({
  repoDir: z.string().min(1, 'repoDir must be a git repository'),
  remoteUrl: z.string().min(1, 'remoteUrl must be the repository URL'),
  branch: z.string(),
  expectedRemoteSha: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, 'expectedRemoteSha must be a full commit sha or null')
    .nullable()
    .optional(),
  ownBranch: z.boolean(),
  sha: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, 'sha must be the full commit sha to push (the one commitWork returned)')
    .optional(),
  wipRef: z
    .string()
    .regex(WIP_REF, 'wipRef must be refs/proofpr/wip/<run-id> (letters, digits, dot, dash, underscore)')
    .refine((r) => !r.includes('..') && !r.endsWith('.lock'), 'wipRef must be a valid ref name')
    .optional(),
});

const MOVED = 'the branch moved on the remote since proofpr last pushed it; re-run /agent fix to start from the new tip';

function checkUrl(url: string): void {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    return; // scp-like or a local path: no credentials possible
  }
  if (u.password || (u.username && u.protocol.startsWith('http'))) {
    throw new WorkspaceError('bad-input', 'remoteUrl must not carry credentials; pass the token in the token option instead');
  }
}

/** Reads `git push --porcelain` ref lines: flag, summary. */
function refLine(stdout: string, ref: string): { flag: string; summary: string } | undefined {
  for (const line of stdout.split('\n')) {
    const [flagAndRef, , summary] = line.split('\t');
    if (line.includes(`:${ref}`) && flagAndRef !== undefined) return { flag: line.charAt(0), summary: summary ?? line };
  }
  return undefined;
}

/**
 * Pushes refs/heads/<branch> (or the given sha) to refs/heads/<branch> on remoteUrl. Only proofpr/* branches; no --force, only
 * --force-with-lease on proofpr's own branch. Errors say what happened and what to do; the token is in
 * no argument, config, message or log line.
 */
export async function pushBranch(opts: PushBranchOptions): Promise<{ pushed: boolean; sha: string }> {
  const o = schema.parse(opts);
  const log = (opts.logger ?? rootLogger('workspace')).child({ op: 'push' });
  const ref = `refs/heads/${o.branch}`;
  const target = o.wipRef ?? ref;
  if (o.wipRef && !o.sha) throw new WorkspaceError('bad-input', 'a WIP push needs the sha of the WIP commit (sha option)');
  const valid = await git(['check-ref-format', ref], { cwd: o.repoDir, okCodes: [0, 1] });
  if (!o.branch.startsWith('proofpr/') || valid.code !== 0 || o.branch.includes('..')) {
    throw new WorkspaceError('refused-ref', `refusing to push '${o.branch}': proofpr pushes only its own proofpr/* branches`);
  }
  checkUrl(o.remoteUrl);
  const sha = o.sha ? await resolveCommit(o.repoDir, o.sha) : await resolveCommit(o.repoDir, ref);
  if (!sha) {
    throw new WorkspaceError(
      'bad-input',
      o.sha
        ? `commit ${o.sha} does not exist in ${o.repoDir}; pass the repository the work was committed in`
        : `branch ${o.branch} does not exist in ${o.repoDir}; commit the work first`,
    );
  }
  const lease = o.wipRef
    ? [`--force-with-lease=${target}:`]
    : o.ownBranch && o.expectedRemoteSha !== undefined
      ? [`--force-with-lease=${ref}:${o.expectedRemoteSha ?? ''}`]
      : [];
  // By sha when given: whatever moved the local ref after the commit cannot change what is pushed.
  const args = ['push', '--porcelain', '--no-verify', ...lease, '--', o.remoteUrl, `${o.sha ? sha : ref}:${target}`];
  const started = Date.now();
  const res = await git(args, { cwd: o.repoDir, token: opts.token, okCodes: [0, 1] }).catch((e: unknown) => {
    throw remoteError(e, `pushing ${o.branch}`, 'contents: write');
  });
  const line = refLine(res.stdout, target);
  if (res.code === 0 && line && line.flag !== '!') {
    const pushed = line.flag !== '=';
    log.info({ branch: o.branch, ref: target, sha, pushed, lease: lease.length > 0, ms: Date.now() - started }, 'branch pushed');
    return { pushed, sha };
  }
  const summary = scrub(line?.summary ?? res.stderr);
  if (/stale info|non-fast-forward|fetch first|rejected.*(ahead|behind)/i.test(summary)) {
    throw new WorkspaceError(
      'remote-moved',
      o.wipRef
        ? `${o.wipRef} already exists on the remote (a run id names one WIP ref); nothing was pushed`
        : o.ownBranch
          ? MOVED
          : `the branch ${o.branch} on the remote has commits proofpr did not push, and proofpr only overwrites branches it ` +
            'created for the same issue; re-run /agent fix to start from the new tip, or delete that remote branch',
    );
  }
  throw remoteError(new GitError(args, res.code, `${summary}\n${res.stderr}`, o.repoDir), `pushing ${o.branch}`, 'contents: write');
}
