/**
 * After a verified follow-up was pushed: a reply in each review thread it addressed, naming the commit
 * and what it changed there, and one PR comment naming the threads it did not address, with why.
 * Whether a thread was addressed comes from facts first: the diff from the reviewed head to the pushed
 * commit changes the lines the thread is on (a line thread: its lines, or lines added right next to
 * them; a file-level thread: its file). The model's report is kept where it gave one: a thread it says
 * it did not address is named with its reason; one it says it addressed counts only when the commit
 * changes the thread's file (its words on how go in the reply). An outdated thread (its line is from an
 * older commit) is decided by the report alone. Replies go to the thread's first comment (REST "create a
 * reply for a review comment"); a reply GitHub refuses is counted, never fatal.
 */
import type { GitHubPort } from '../../github/port.js';
import { sanitizeText } from '../../github/sanitize.js';
import { logger } from '../../log.js';
import type { DiffHunk } from '../../workspace/changed-hunks.js';
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
  /** The lines it changes there (git diff -U0 from the reviewed head); undefined when unknown. */
  hunks?: readonly DiffHunk[];
  /** The configured comment prefix (default /agent), for the hint in the not-addressed comment. */
  trigger?: string;
}

/** Model text going into a comment: no hidden channels, no @-mentions that would notify anyone. */
const plain = (s: string): string =>
  sanitizeText(s)
    .replace(/@(?=\w)/g, '@\u200b')
    .replace(/\s+/g, ' ');

/** The lines of the reviewed head a thread is on: [first, last]; undefined for a file-level or outdated thread. */
function threadLines(tt: TaskThread): [number, number] | undefined {
  const t = tt.thread;
  if (t.outdated || t.line === undefined) return undefined;
  return [Math.min(t.startLine ?? t.line, t.line), t.line];
}

/**
 * The hunks of the thread's file that change its lines: lines replaced or removed in [first, last], or
 * lines added right before, inside or right after them. A file-level thread: every hunk of its file.
 */
export function hunksOnThread(tt: TaskThread, hunks: readonly DiffHunk[]): DiffHunk[] {
  const inFile = hunks.filter((h) => h.path === tt.thread.path);
  const range = threadLines(tt);
  if (!range) return tt.thread.line === undefined && !tt.thread.outdated ? inFile : [];
  const [first, last] = range;
  return inFile.filter((h) =>
    h.oldLines > 0 ? h.oldStart <= last && h.oldStart + h.oldLines - 1 >= first : h.oldStart >= first - 1 && h.oldStart <= last,
  );
}

interface Verdict {
  addressed: boolean;
  why?: string;
  /** The commit's hunks on the thread's lines (quoted in the reply); undefined when the commit's lines are unknown. */
  on?: DiffHunk[];
  /** The run's own words on how, when it gave them. */
  how?: string;
}

function judge(tt: TaskThread, inp: AnswerInput): Verdict {
  const claim = inp.claims.get(tt.key);
  if (claim && !claim.addressed) return { addressed: false, why: plain(claim.why) };
  const sha = inp.sha.slice(0, 12);
  const on = inp.hunks ? hunksOnThread(tt, inp.hunks) : undefined;
  const how = claim?.addressed && claim.how ? { how: plain(claim.how) } : {};
  if (on?.length) return { addressed: true, on, ...how };
  if (!claim) {
    const where = threadLines(tt) ? `the lines it is on (\`${threadWhere(tt.thread)}\`)` : `\`${tt.thread.path}\``;
    return {
      addressed: false,
      why: inp.hunks
        ? `the run did not report on this thread, and commit ${sha} does not change ${where}`
        : 'the run did not report on this thread',
    };
  }
  const changed = inp.changed ?? (inp.hunks ? new Set(inp.hunks.map((h) => h.path)) : undefined);
  if (changed && !changed.has(tt.thread.path))
    return { addressed: false, why: `reported as addressed, but commit ${sha} does not change \`${tt.thread.path}\`` };
  return { addressed: true, ...(on ? { on } : {}), ...how };
}

/** At most this many diff lines quoted in one reply. */
const QUOTED_LINES = 24;

/** The reply in an addressed thread: the commit, what it changed on the thread's lines, the run's words on how. */
export function replyText(tt: TaskThread, v: Verdict, sha: string, branch: string): string {
  const out = [`Addressed in ${sha} (pushed to \`${branch}\`; the follow-up was verified on that commit).`];
  if (v.on?.length) {
    const lines = v.on.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]);
    const shown = lines.slice(0, QUOTED_LINES).map((l) => sanitizeText(l.replace(/\r$/, '')) || l.slice(0, 1));
    const longest = Math.max(2, ...shown.map((l) => (l.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 0)));
    const fence = '`'.repeat(longest + 1);
    out.push(
      '',
      `The commit changes the lines this thread is on (\`${threadWhere(tt.thread)}\`):`,
      '',
      `${fence}diff`,
      ...shown,
      ...(lines.length > shown.length ? [`… ${lines.length - shown.length} more line(s) in the commit`] : []),
      fence,
    );
  } else if (v.on && threadLines(tt)) {
    out.push('', `The run reports this thread addressed; the commit changes \`${tt.thread.path}\`, not the lines the thread is on.`);
  }
  if (v.how) out.push('', `How, in the run's words: ${v.how}`);
  return out.join('\n');
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
      const reply = await github.reviews?.reply(inp.pr, tt.rootCommentId, replyText(tt, verdict, inp.sha, inp.branch));
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
