/**
 * Review follow-ups, as the one follow-up path (follow-up-pr.ts) uses them: before the run, the PR's
 * unresolved review threads become part of the task (review/review-task.ts); during it, the model's final
 * message is kept; after a verified push, each thread it addressed gets a reply naming the commit and the
 * rest are named in one comment (review/answer-threads.ts), the claims checked against the commit's diff.
 */
import type { RunEvent } from '../agent/events.js';
import type { GitHubPort } from '../github/port.js';
import { answerThreads, type ThreadOutcome } from './review/answer-threads.js';
import { loadReviewTask, type ReviewTask } from './review/review-task.js';
import { lastAssistantText, parseThreadReport } from './review/thread-report.js';
import { logger } from '../log.js';
import type { DiffHunk } from '../workspace/changed-hunks.js';

const log = logger('review-follow-up');

export interface AnswerOptions {
  /** The verified commit that was pushed. */
  sha: string;
  branch: string;
  /** The paths that commit changes since the branch's previous tip (git): what claims are checked against. */
  commitPaths?: (sha: string) => Promise<string[]>;
  /** The lines that commit changes since the branch's previous tip (git diff -U0): which threads' lines it changed. */
  commitHunks?: (sha: string) => Promise<DiffHunk[]>;
  /** Without commitPaths: the run's files changed since the merge base (a wider net), when it lists any. */
  runPaths?: string[];
}

export interface ReviewFollowUp {
  /** Appended to the follow-up's task body ('' when there are no unresolved threads). */
  taskText: string;
  threads: number;
  /** Give it every RunEvent of the run. */
  observe(ev: RunEvent): void;
  /** After the verified push: replies and the not-addressed comment. Never throws: the push already happened. */
  answer(o: AnswerOptions): Promise<ThreadOutcome[]>;
}

async function changedSet(o: AnswerOptions): Promise<ReadonlySet<string> | undefined> {
  if (o.commitPaths) return new Set(await o.commitPaths(o.sha));
  return o.runPaths && o.runPaths.length > 0 ? new Set(o.runPaths) : undefined;
}

/** `threads: false` (a CI fix round, whose task is the failing checks): no threads read, nothing answered. */
export async function reviewFollowUp(
  github: GitHubPort,
  pr: number,
  config: { authorized: readonly string[]; trigger: string },
  opts: { threads?: boolean } = {},
): Promise<ReviewFollowUp> {
  const task: ReviewTask | undefined = opts.threads === false ? undefined : await loadReviewTask(github, pr, config.authorized);
  let finalText = '';
  return {
    taskText: task?.text ?? '',
    threads: task?.threads.length ?? 0,
    observe(ev) {
      if (ev.type !== 'assistant') return;
      const text = lastAssistantText(ev.content);
      if (text.trim() !== '') finalText = text;
    },
    async answer(o) {
      if (!task) return [];
      try {
        const claims = parseThreadReport(
          finalText,
          task.threads.map((t) => t.key),
        );
        const changed = await changedSet(o);
        const hunks = o.commitHunks ? await o.commitHunks(o.sha).catch(() => undefined) : undefined;
        return await answerThreads(github, {
          pr,
          task,
          claims,
          sha: o.sha,
          branch: o.branch,
          trigger: config.trigger,
          ...(changed ? { changed } : {}),
          ...(hunks ? { hunks } : {}),
        });
      } catch (e) {
        log.warn({ pr, err: (e as Error).message }, 'could not answer the review threads');
        return [];
      }
    },
  };
}
