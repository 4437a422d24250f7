import { redactText } from '../secrets/index.js';
import type { TaskSpec } from './run-task-types.js';

/** The commit message of a run's work: the task as its subject (72 characters at most). */
export function commitMessage(t: TaskSpec): string {
  const subject =
    t.kind === 'issue' && t.issue !== undefined
      ? `Fix #${t.issue}: ${t.title}`
      : t.kind === 'sweep'
        ? `Sweep ${t.sweep ?? ''}: ${t.title}`
        : t.title;
  return `${redactText(subject).slice(0, 72)}\n\nMade by proofpr; the run's evidence is in the pull request body.`;
}
