/**
 * A PR's unresolved review threads → the follow-up's task: each thread numbered (T1, T2, …) with its file
 * and line, its comments quoted as untrusted data. Only comments by people who may trigger a run are
 * quoted (asked of the permission API, once per author); bots (proofpr's own replies included) never are.
 * The model is asked to end with one report line per thread (thread-report.ts reads it back).
 */
import { authorize } from '../../github/authorize.js';
import { isBot } from '../../github/event.js';
import type { GitHubPort } from '../../github/port.js';
import type { ReviewThread, ReviewThreadComment } from '../../github/review-threads-port.js';
import { quoteUntrusted, sanitizeText } from '../../github/sanitize.js';

/** More threads than this are not taken in one run (they are named as not addressed). */
export const MAX_THREADS = 20;
/** Characters of one comment the model sees. */
const MAX_COMMENT_CHARS = 4000;

export interface TaskThread {
  /** "T1", "T2", … in the order GitHub lists them. */
  key: string;
  thread: ReviewThread;
  /** The thread's first comment: a reply goes to it. */
  rootCommentId: number;
  /** Link to the thread, when GitHub gave one. */
  url?: string;
}

export interface ReviewTask {
  threads: TaskThread[];
  /** Unresolved threads past MAX_THREADS: not in the task. */
  overflow: TaskThread[];
  /** The text appended to the follow-up's task body. */
  text: string;
  source: 'graphql' | 'rest';
  /** Comments left out because their author may not trigger runs. */
  unauthorizedComments: number;
}

/** "src/a.ts line 4", "src/a.ts (file)", with "outdated" when the line changed since. */
export function threadWhere(t: ReviewThread): string {
  const at = t.line !== undefined ? `${t.path} line ${t.line}` : `${t.path} (file)`;
  return t.outdated ? `${at}, outdated: the code changed since the comment` : at;
}

export const reportLine = (key: string): string => `thread ${key}: addressed | thread ${key}: not addressed: <why>`;

function threadText(tt: TaskThread, comments: ReviewThreadComment[]): string {
  const parts = [
    `### ${tt.key}: \`${sanitizeText(tt.thread.path)}\`${tt.thread.line !== undefined ? ` line ${tt.thread.line}` : ''}${tt.thread.outdated ? ' (outdated: the code changed since)' : ''}`,
  ];
  for (const c of comments)
    parts.push(quoteUntrusted(`Review comment by @${c.author} at ${c.createdAt}`, c.body.slice(0, MAX_COMMENT_CHARS)));
  return parts.join('\n\n');
}

function render(threads: Array<{ tt: TaskThread; comments: ReviewThreadComment[] }>, source: 'graphql' | 'rest'): string {
  const keys = threads.map((x) => x.tt.key);
  return [
    `## Unresolved review threads (${threads.length})`,
    source === 'rest' ? '(GitHub could not say which threads are resolved here: every thread is listed.)' : '',
    'These review threads on the pull request are the task: change the code so each is addressed, under the same tests and gates.',
    ...threads.map((x) => threadText(x.tt, x.comments)),
    '## Report per thread',
    'End your final message with one line per thread, exactly in this form (proofpr replies in each thread from it and checks it against your commit):',
    '```',
    ...keys.map(reportLine),
    '```',
  ]
    .filter((l) => l !== '')
    .join('\n\n');
}

export async function loadReviewTask(
  github: Pick<GitHubPort, 'reviews' | 'permission'>,
  pr: number,
  allowed: readonly string[],
  selfLogin?: string,
): Promise<ReviewTask | undefined> {
  if (!github.reviews) return undefined;
  const { threads, source } = await github.reviews.listThreads(pr);
  const authorized = new Map<string, boolean>();
  const may = async (login: string): Promise<boolean> => {
    if (!authorized.has(login)) authorized.set(login, (await authorize(github, login, allowed)).ok);
    return authorized.get(login) === true;
  };
  let unauthorizedComments = 0;
  const taken: Array<{ tt: TaskThread; comments: ReviewThreadComment[] }> = [];
  for (const thread of threads) {
    const root = thread.comments[0];
    if (thread.resolved || !root) continue;
    const comments: ReviewThreadComment[] = [];
    for (const c of thread.comments) {
      if (isBot({ login: c.author, ...(c.authorType ? { type: c.authorType } : {}) }, selfLogin)) continue;
      if (await may(c.author)) comments.push(c);
      else unauthorizedComments++;
    }
    // A thread nobody who may ask for work took part in is not a request.
    if (comments.length === 0) continue;
    const tt: TaskThread = { key: `T${taken.length + 1}`, thread, rootCommentId: root.id, ...(root.url ? { url: root.url } : {}) };
    taken.push({ tt, comments });
  }
  if (taken.length === 0) return undefined;
  const inTask = taken.slice(0, MAX_THREADS);
  return {
    threads: inTask.map((x) => x.tt),
    overflow: taken.slice(MAX_THREADS).map((x) => x.tt),
    text: render(inTask, source),
    source,
    unauthorizedComments,
  };
}
