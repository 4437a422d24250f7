/**
 * After a verified follow-up was pushed: a reply in each review thread it addressed, naming the commit,
 * and one PR comment naming the threads it did not address, with why. The model's report is a claim:
 * a thread counts as addressed only when the model says so AND the pushed commit changes the thread's
 * file (when the changed paths are known). Replies go to the thread's first comment (REST "create a reply
 * for a review comment"); a reply GitHub refuses is counted, never fatal.
 */
import type { GitHubPort } from '../../github/port.js';
import { sanitizeText } from '../../github/sanitize.js';
import { logger } from '../../log.js';
import type { ReviewTask, TaskThread } from './review-task.js';
import { threadWhere } from './review-task.js';
import type { ThreadClaim } from './thread-report.js';

const log = logger('review-follow-up');

export interface ThreadOutcome {
  key: string;
  path: string;
  addressed: boolean;
  /** Why not, when not addressed. */
  why?: string;
  /** The reply posted in the thread, when one was. */
  replyId?: number;
}

export interface AnswerInput {
  pr: number;
  task: ReviewTask;
  claims: Map<string, ThreadClaim>;
  /** The pushed commit. */
  sha: string;
  branch: string;
  /** Paths the pushed commit changes relative to the branch's previous tip; undefined when unknown. */
  changed?: ReadonlySet<string>;
  /** The configured comment prefix (default /agent), for the hint in the not-addressed comment. */
  trigger?: string;
}

/** Model text going into a comment: no hidden channels, no @-mentions that would notify anyone. */
const plain = (s: string): string =>
  sanitizeText(s)
    .replace(/@(?=\w)/g, '@\u200b')
    .replace(/\s+/g, ' ');

function judge(tt: TaskThread, inp: AnswerInput): { addressed: boolean; why?: string } {
  const claim = inp.claims.get(tt.key);
  if (!claim) return { addressed: false, why: 'the run did not report on this thread' };
  if (!claim.addressed) return { addressed: false, why: plain(claim.why) };
  if (inp.changed && !inp.changed.has(tt.thread.path))
    return { addressed: false, why: `reported as addressed, but commit ${inp.sha.slice(0, 12)} does not change \`${tt.thread.path}\`` };
  return { addressed: true };
}

function notAddressedComment(list: Array<{ tt: TaskThread; why: string }>, total: number, sha: string, trigger: string): string {
  const lines = [`proofpr did not address ${list.length} of ${total} unresolved review thread(s) in commit ${sha}:`, ''];
  for (const { tt, why } of list) {
    const where = `\`${threadWhere(tt.thread)}\``;
    lines.push(`- ${tt.url ? `[${where}](${tt.url})` : where}: ${why}`);
  }
  lines.push('', `Those threads were left as they are; resolve them by hand or comment \`${trigger} fix\` with more detail.`);
  return lines.join('\n');
}

export async function answerThreads(github: Pick<GitHubPort, 'reviews' | 'createComment'>, inp: AnswerInput): Promise<ThreadOutcome[]> {
  const outcomes: ThreadOutcome[] = [];
  const missed: Array<{ tt: TaskThread; why: string }> = [];
  for (const tt of inp.task.threads) {
    const verdict = judge(tt, inp);
    const out: ThreadOutcome = {
      key: tt.key,
      path: tt.thread.path,
      addressed: verdict.addressed,
      ...(verdict.why ? { why: verdict.why } : {}),
    };
    outcomes.push(out);
    if (!verdict.addressed) {
      missed.push({ tt, why: verdict.why ?? 'not addressed' });
      continue;
    }
    try {
      const reply = await github.reviews?.reply(
        inp.pr,
        tt.rootCommentId,
        `Addressed in ${inp.sha} (pushed to \`${inp.branch}\`; every gate passed on that commit).`,
      );
      if (reply) out.replyId = reply.id;
    } catch (e) {
      log.warn({ pr: inp.pr, thread: tt.key, err: (e as Error).message }, 'could not reply in the review thread');
    }
  }
  for (const tt of inp.task.overflow)
    missed.push({ tt, why: 'more unresolved threads than one follow-up takes: ask again after this one' });
  if (missed.length > 0)
    await github.createComment(
      inp.pr,
      notAddressedComment(missed, inp.task.threads.length + inp.task.overflow.length, inp.sha, inp.trigger ?? '/agent'),
    );
  return outcomes;
}
