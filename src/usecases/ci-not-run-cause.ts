/**
 * CI reported nothing on the pushed commit: the likely cause, and what fixes it. In order of certainty:
 * a workflow run waiting for approval, no workflow that starts on pull_request, a push made with the
 * workflow token whose runs never appeared, a change to a workflow file.
 */
import type { WorkflowRunInfo } from './ci-types.js';

export interface NotRunFacts {
  /** Workflow runs for the sha (approval-pending ones have no check runs yet). */
  workflowRuns: WorkflowRunInfo[];
  /** Workflow files at the pushed commit and their events; undefined when unknown. */
  workflows?: Array<{ path: string; events: string[] }> | undefined;
  /** The push was made by the Action with its step token (GITHUB_TOKEN unless another token was given). */
  pushedByAction: boolean;
  /** Files the pushed work changed. */
  changedFiles: string[];
}

export function notRunCause(f: NotRunFacts): string {
  const waiting = f.workflowRuns.filter(
    (r) => r.conclusion === 'action_required' || r.status === 'action_required' || r.status === 'waiting',
  );
  if (waiting.length > 0) {
    return `approval required: ${waiting.map((r) => `"${r.name}"`).join(', ')} is waiting for a maintainer to approve running workflows for the bot's push. Fix: approve the run on the Actions tab, or allow workflows from this App in the repository's Actions settings.`;
  }
  if (
    f.workflows &&
    !f.workflows.some((w) => w.events.includes('pull_request') || w.events.includes('pull_request_target') || w.events.includes('push'))
  ) {
    return f.workflows.length === 0
      ? 'no workflow: the repository has no workflow under .github/workflows at this commit. Fix: add a workflow that runs on pull_request.'
      : 'no workflow on pull_request: no workflow under .github/workflows starts on pull_request or push. Fix: add `on: pull_request` to the workflow that runs the tests.';
  }
  if (f.pushedByAction) {
    return "pushed with GITHUB_TOKEN: no workflow run appeared for this commit. GitHub starts pull_request workflows for a pull request the workflow token opened (held for a maintainer's approval) since 2026-06-11; a GitHub Enterprise Server without that change starts none. Fix: check the repository's Actions settings, or pass a GitHub App installation token as the `github_token` input.";
  }
  const changedWorkflow = f.changedFiles.filter((p) => p.startsWith('.github/workflows/'));
  if (changedWorkflow.length > 0) {
    return `workflow file changed: the push changed ${changedWorkflow.join(', ')}; GitHub may refuse or hold workflows a bot changed. Fix: a maintainer reviews the workflow change and pushes or approves it.`;
  }
  return 'no check or status appeared for this commit. Fix: check that the repository has Actions (or another CI) enabled for pull requests and that it reports on the PR head.';
}
