import type { RunResult } from '../agent/loop.js';
import type { Verdict } from '../agent/events.js';
import { TreeMismatchError, WorkspaceError } from '../workspace/errors.js';
import { commitWork } from '../workspace/publish.js';
import { adoptCommit, type Snapshot } from '../workspace/snapshot-commit.js';
import { diffText, filesChanged } from '../workspace/diff-stat.js';
import { leftOutOfTree } from '../workspace/tree-hash.js';
import { infrastructureChanges } from '../agent/verification/gates/protected-changes.js';
import { commitMessage } from './commit-message.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunOutcome } from './run-outcome.js';
import type { RunTaskInput } from './run-task-types.js';
import { saveWip } from './save-wip.js';

const MAX_DIFF_BYTES = 200_000;

/**
 * Step 5: what the run produced. Verified work is committed only as the exact tree the verifier accepted;
 * anything else that changed files becomes a WIP commit (or stays in the kept worktree). A plan run and a
 * run that changed nothing commit nothing.
 */
export async function publishResult(input: RunTaskInput, ws: Workspace, result: RunResult, tested?: Snapshot): Promise<RunOutcome> {
  const changed = await filesChanged(ws.wt.path, ws.wt.baseSha, ws.git);
  const diff = await diffText(ws.wt.path, ws.wt.baseSha, MAX_DIFF_BYTES, ws.git);
  // Files no commit may hold (look-alike .git paths, over the size bound, ignored by the base's rules): named in the evidence.
  const leftOut = await leftOutOfTree(ws.wt.path, ws.git);
  const later = await infrastructureChanges(ws.wt.path, ws.wt.baseSha, ws.wt.gitDir);
  let outcome: RunOutcome = {
    ...judge(input, result, changed.length),
    wip: false,
    keepWorktree: false,
    filesChanged: changed,
    diff,
    ...(leftOut.length > 0 ? { leftOut } : {}),
    ...(later.length > 0 ? { infrastructureChanges: later } : {}),
  };
  if (input.mode === 'plan' || changed.length === 0) return outcome;
  if (outcome.verdict === 'verified')
    outcome =
      tested && tested.tree === result.acceptedTree
        ? await adoptTested(ws, outcome, tested)
        : await commitAccepted(input, ws, outcome, result.acceptedTree);
  return outcome.headSha ? outcome : saveWip(input, ws, outcome);
}

/** The verdict and reason from how the loop ended, the mode and whether anything changed. */
function judge(input: RunTaskInput, result: RunResult, changes: number): { verdict: Verdict; reason: string } {
  if (input.mode === 'plan')
    return { verdict: 'unverified', reason: 'plan only (read-only run): nothing was changed, so nothing was verified' };
  const verdict: Verdict = result.status === 'completed' ? 'verified' : result.status;
  if (changes > 0) return { verdict, reason: result.reason };
  // A sweep with nothing to change succeeded; a fix that changed nothing did not fix anything.
  return {
    verdict: input.task.kind !== 'sweep' && verdict === 'verified' ? 'unverified' : verdict,
    reason: `no changes: ${result.reason}`,
  };
}

/** The final run tested this exact commit in a clean checkout: the branch moves to it, so what is pushed is what was tested. */
async function adoptTested(ws: Workspace, outcome: RunOutcome, tested: Snapshot): Promise<RunOutcome> {
  await adoptCommit({ worktree: ws.wt.path, snapshot: tested, gitDir: ws.wt.gitDir });
  return tested.changed ? { ...outcome, headSha: tested.sha } : outcome;
}

/** Commits the worktree only when its tree is the one the verifier accepted. */
async function commitAccepted(
  input: RunTaskInput,
  ws: Workspace,
  outcome: RunOutcome,
  acceptedTree: string | undefined,
): Promise<RunOutcome> {
  if (acceptedTree === undefined)
    return {
      ...outcome,
      verdict: 'unverified',
      reason: 'the verifier accepted no tree (the worktree could not be hashed), so nothing was committed as verified',
    };
  try {
    const c = await commitWork({
      worktree: ws.wt.path,
      message: commitMessage(input.task),
      identity: input.config.commit,
      ...(input.coAuthor ? { coAuthor: input.coAuthor } : {}),
      ...ws.git,
      expectedTreeHash: acceptedTree,
      protect: { writable: input.config.permissions.writable, writableWorkflows: input.config.permissions.writable_workflows },
    });
    return 'sha' in c ? { ...outcome, headSha: c.sha } : outcome;
  } catch (e) {
    if (e instanceof WorkspaceError && e.kind === 'protected') return { ...outcome, verdict: 'unverified', reason: e.message };
    if (!(e instanceof TreeMismatchError)) throw e;
    return {
      ...outcome,
      verdict: 'unverified',
      reason: `the files changed after the final test run, so the tested tree is not the tree on disk (${e.message})`,
    };
  }
}
