import { redactText } from '../secrets/index.js';
import type { TaskSpec } from './run-task-types.js';

/** True of every run, local or on GitHub: a local run opens no pull request, so the body is not the only place. */
export const COMMIT_TRAILER = [
  "Made by proofpr. The run's evidence (the tests it ran, their counts,",
  "the gates) is in the run folder's evidence.json and summary.md, and in",
  'the pull request body when the run opened one.',
].join('\n');

/** The commit message of a run's work: the task as its subject (72 characters at most). */
export function commitMessage(t: TaskSpec): string {
  const subject =
    t.kind === 'issue' && t.issue !== undefined
      ? `Fix #${t.issue}: ${t.title}`
      : t.kind === 'sweep'
        ? `Sweep ${t.sweep ?? ''}: ${t.title}`
        : t.title;
  return `${redactText(subject).slice(0, 72)}\n\n${COMMIT_TRAILER}`;
}
