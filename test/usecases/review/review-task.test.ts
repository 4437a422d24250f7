import { describe, it, expect } from '@jest/globals';
import { loadReviewTask, MAX_THREADS } from '../../../src/usecases/review/review-task.js';
import { answerThreads } from '../../../src/usecases/review/answer-threads.js';
import type { ReviewThread } from '../../../src/github/review-threads-port.js';

const thread = (i: number, extra: Partial<ReviewThread> = {}): ReviewThread => ({
  id: `t${i}`,
  resolved: false,
  outdated: false,
  path: `src/f${i}.ts`,
  line: i,
  comments: [{ id: 1000 + i, author: 'maintainer', body: `change ${i}`, createdAt: '2026-11-29T11:00:00Z', url: `https://x/r${i}` }],
  ...extra,
});

function port(threads: ReviewThread[]) {
  const replies: Array<[number, string]> = [];
  const comments: string[] = [];
  const asked: string[] = [];
  return {
    replies,
    comments,
    asked,
    github: {
      reviews: {
        listThreads: async () => ({ threads, source: 'graphql' as const }),
        reply: async (_pr: number, id: number, body: string) => (replies.push([id, body]), { id: 1, url: 'u' }),
      },
      permission: async (user: string) => (asked.push(user), { permission: user === 'maintainer' ? 'write' : 'read' }),
      createComment: async (_n: number, body: string) => (comments.push(body), { id: 2, url: 'c' }),
    },
  };
}

describe('review follow-ups - the task from the threads', () => {
  it('review task - no unresolved thread anyone authorized took part in: no review task at all', async () => {
    const p = port([
      thread(1, { resolved: true }),
      thread(2, { comments: [{ id: 5, author: 'outsider', body: 'x', createdAt: 'c' }] }),
      thread(3, { comments: [{ id: 6, author: 'renovate[bot]', body: 'x', createdAt: 'c' }] }),
    ]);
    expect(await loadReviewTask(p.github, 13, ['write'])).toBeUndefined();
    // The permission API is asked once per human author; a bot is never asked.
    expect(p.asked).toEqual(['outsider']);
  });

  it(`review task - at most ${MAX_THREADS} threads per run; the rest are named as not addressed after the push`, async () => {
    const p = port(Array.from({ length: MAX_THREADS + 2 }, (_, i) => thread(i + 1)));
    const task = await loadReviewTask(p.github, 13, ['write']);
    expect(task?.threads.map((t) => t.key)).toEqual(Array.from({ length: MAX_THREADS }, (_, i) => `T${i + 1}`));
    expect(task?.overflow).toHaveLength(2);
    expect(task?.text).toContain(`## Unresolved review threads (${MAX_THREADS})`);
    expect(task?.text).not.toContain(`src/f${MAX_THREADS + 1}.ts`);
    expect(p.asked).toEqual(['maintainer']);
    if (!task) return;
    const claims = new Map(task.threads.map((t) => [t.key, { addressed: true as const }]));
    const changed = new Set(task.threads.map((t) => t.thread.path));
    const outcomes = await answerThreads(p.github, {
      pr: 13,
      task,
      claims,
      sha: 'd'.repeat(40),
      branch: 'proofpr/1-x',
      changed,
      trigger: '/bot',
    });
    expect(outcomes.filter((o) => o.addressed)).toHaveLength(MAX_THREADS);
    expect(p.replies).toHaveLength(MAX_THREADS);
    expect(p.replies[0]).toEqual([1001, expect.stringContaining(`Addressed in ${'d'.repeat(40)}`)]);
    expect(p.comments).toHaveLength(1);
    expect(p.comments[0]).toContain(`did not address 2 of ${MAX_THREADS + 2}`);
    expect(p.comments[0]).toContain(`[\`src/f${MAX_THREADS + 1}.ts line ${MAX_THREADS + 1}\`](https://x/r${MAX_THREADS + 1})`);
    expect(p.comments[0]).toContain('comment `/bot fix`');
  });

  it('review task - a reply GitHub refuses is not fatal: the other threads still get theirs', async () => {
    const p = port([thread(1), thread(2)]);
    const task = await loadReviewTask(p.github, 13, ['write']);
    if (!task) throw new Error('no task');
    let first = true;
    const github = {
      ...p.github,
      reviews: {
        ...p.github.reviews,
        reply: async (pr: number, id: number, body: string) => {
          if (first) {
            first = false;
            throw Object.assign(new Error('Not Found'), { status: 404 });
          }
          return p.github.reviews.reply(pr, id, body);
        },
      },
    };
    const claims = new Map(task.threads.map((t) => [t.key, { addressed: true as const }]));
    const outcomes = await answerThreads(github, { pr: 13, task, claims, sha: 'e'.repeat(40), branch: 'b' });
    expect(outcomes.map((o) => [o.key, o.addressed, o.replyId])).toEqual([
      ['T1', true, undefined],
      ['T2', true, 1],
    ]);
    expect(p.replies.map((r) => r[0])).toEqual([1002]);
  });
});

describe('review follow-ups - not in a CI fix round', () => {
  it('review follow-up - threads: false reads no threads, adds nothing to the task and answers nothing', async () => {
    const { reviewFollowUp } = await import('../../../src/usecases/review-follow-up.js');
    let listed = 0;
    const p = port([thread(1)]);
    const github = {
      ...p.github,
      reviews: { ...p.github.reviews, listThreads: async () => (listed++, p.github.reviews.listThreads()) },
    } as never;
    const r = await reviewFollowUp(github, 13, { authorized: ['write'], trigger: '/agent' }, { threads: false });
    expect(r.taskText).toBe('');
    expect(await r.answer({ sha: 'f'.repeat(40), branch: 'b' })).toEqual([]);
    expect(listed).toBe(0);
    expect(p.replies).toEqual([]);
    const on = await reviewFollowUp(github, 13, { authorized: ['write'], trigger: '/agent' });
    expect(on.threads).toBe(1);
    expect(listed).toBe(1);
  });
});
