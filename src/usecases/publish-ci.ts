/**
 * What CI said goes where the run's evidence already is: evidence.json (the `ci` field), the PR body's
 * CI section (replaced in the current body, so a maintainer's edits stay), a fresh `proofpr` check run
 * on the sha whose summary carries it, and the status comment.
 */
import type { Evidence } from '../agent/evidence/types.js';
import { renderCiSection, withCiSection } from '../agent/evidence/ci-md.js';
import { updateRunFolder } from '../run/update-run-folder.js';
import { postCheckRun } from './publish-work.js';
import { renderStatusComment, type StatusState } from '../github/status-comment.js';
import type { CiEvidence, CiPort } from './ci-types.js';
import type { GitHubPort } from '../github/port.js';

/** What a published run leaves for the CI watch: where to report, and the evidence it extends. */
export interface PublishedRun {
  runId: string;
  prNumber: number;
  sha: string;
  evidence: Evidence;
  summaryMd: string;
  runDir?: string;
  statusCommentId?: number;
  /** The status comment's final state, re-rendered with the CI line. */
  status?: StatusState;
  /** Files the pushed work changed (for the not-run cause). */
  changedFiles: string[];
}

export async function publishCi(
  ci: CiEvidence,
  run: PublishedRun,
  github: Pick<GitHubPort, 'updatePullRequest' | 'createCheckRun' | 'updateComment'>,
  ciPort: Pick<CiPort, 'pullRequestBody'>,
): Promise<void> {
  // Through the one run-folder writer (redacted): a CI check's name or cause is text the repository controls.
  const evidence: Evidence = run.runDir
    ? (await updateRunFolder(run.runDir, { evidence: { ci } }, { current: run.evidence })).evidence
    : { ...run.evidence, ci };
  const body = await ciPort.pullRequestBody(run.prNumber);
  await github.updatePullRequest(run.prNumber, { body: withCiSection(body, ci) });
  await postCheckRun(github, run.sha, evidence, `${run.summaryMd}\n\n${renderCiSection(ci)}`);
  if (run.statusCommentId !== undefined && run.status)
    await github.updateComment(run.statusCommentId, renderStatusComment({ ...run.status, ci }));
}
