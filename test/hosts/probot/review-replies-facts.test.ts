/**
 * Replies in review threads come from facts (issue 38): a thread is addressed when the pushed commit
 * changed the lines it is on, or when the run says it addressed it and the commit changes its file; never
 * only because the run remembered to report it. The reply names the commit and quotes what changed there.
 *
 * The rule the cases were written by (before the mechanism): one thread per combination of what the run
 * reported (nothing; `addressed`; `addressed: <how>`; `not addressed: <why>`) and what the commit did to
 * the thread (changed its line; changed a line inside a multi-line thread; added lines right after its
 * line; changed its file elsewhere; did not change its file), plus a file-level thread whose file changed
 * and an outdated thread whose old line number the commit happens to change. Expected: addressed exactly
 * when the commit changed the thread's lines and the run did not say otherwise, or the run said addressed
 * and the commit changes the file (an outdated thread: the report alone); a reply that quotes the changed
 * lines whenever the commit changed them, and the run's words on how whenever it gave them.
 *
 * First try (main at b3b9401, the replies from the report alone): 6 of 10 threads decided right, 3 of 10
 * with the reply expected (4 threads the commit changed got "the run did not report on this thread").
 */
import { describe, expect, it } from '@jest/globals';
import type { FakeThread } from '../../fakes/github/review-routes.js';
import { fakeRunTask, fakeWorkspace, useAppHarness } from './harness.js';
import { payload } from '../../github/payloads.js';
import type { DiffHunk } from '../../../src/workspace/changed-hunks.js';

const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const SHA = 'c'.repeat(40);
const HEAD = '1'.repeat(40);
const perms = { maintainer: { permission: 'write', role_name: 'write' } };
const ownPr = { number: 13, head: BRANCH, headSha: HEAD, base: 'main', state: 'open' as const };

const thread = (id: number, path: string, at: Partial<FakeThread> = {}): FakeThread => ({
  pr: 13,
  path,
  ...at,
  comments: [{ id, user: 'maintainer', body: `comment ${id}` }],
});
/** T1…T10 in this order. */
const threads: FakeThread[] = [
  thread(401, 'src/parser.ts', { line: 14 }), // T1: no report, line replaced
  thread(402, 'src/parser.ts', { startLine: 20, line: 24 }), // T2: no report, first line of the range changed
  thread(403, 'src/lexer.ts', { line: 3 }), // T3: no report, lines added right after it
  thread(404, 'README.md'), // T4: file-level, no report, file changed
  thread(405, 'src/parser.ts', { line: 40 }), // T5: no report, file changed elsewhere
  thread(406, 'src/util.ts', { line: 5 }), // T6: addressed: how, file changed elsewhere
  thread(407, 'src/util.ts', { line: 8 }), // T7: not addressed: why, its line changed
  thread(408, 'src/other.ts', { line: 2 }), // T8: addressed, file not changed
  thread(409, 'src/parser.ts', { line: 7, outdated: true }), // T9: outdated, no report, old line number changed
  thread(410, 'src/cli.ts', { line: 50 }), // T10: addressed: how, its line changed
];
const hunk = (path: string, oldStart: number, oldLines: number, lines: string[]): DiffHunk => ({
  path,
  oldStart,
  oldLines,
  newStart: oldStart,
  newLines: lines.filter((l) => l.startsWith('+')).length,
  lines,
});
const hunks: DiffHunk[] = [
  hunk('src/parser.ts', 7, 1, ['-  let i = 0;', '+  let i = 1;']),
  hunk('src/parser.ts', 14, 1, ['-  return lines.slice(0, -1);', '+  return lines;']),
  hunk('src/parser.ts', 20, 1, ['-  if (!text) return [];', '+  if (text === "") return [];']),
  hunk('src/lexer.ts', 3, 0, ['+export const tokenize = lex;']),
  hunk('README.md', 1, 1, ['-# parser', '+# parser (keeps the last line)']),
  hunk('src/util.ts', 8, 1, ['-  x;', '+  y;']),
  hunk('src/util.ts', 30, 1, ['-  check();', '+  // moved into parse()']),
  hunk('src/cli.ts', 50, 1, ['-  --old-flag', '+  --new-flag']),
];
const report = [
  'thread T6: addressed: moved the check into parse()',
  'thread T7: not addressed: needs a maintainer decision',
  'thread T8: addressed',
  'thread T10: addressed: renamed the flag',
].join('\n');

/** What each thread should get: a reply containing these, or a line in the not-addressed comment containing this. */
const expected: Array<[string, { reply: string[] } | { missed: string }]> = [
  ['T1', { reply: [`Addressed in ${SHA}`, 'src/parser.ts line 14', '-  return lines.slice(0, -1);', '+  return lines;'] }],
  ['T2', { reply: ['src/parser.ts line 24', '+  if (text === "") return [];'] }],
  ['T3', { reply: ['+export const tokenize = lex;'] }],
  ['T4', { reply: ['+# parser (keeps the last line)'] }],
  [
    'T5',
    {
      missed: `the run did not report on this thread, and commit ${SHA.slice(0, 12)} does not change the lines it is on (\`src/parser.ts line 40\`)`,
    },
  ],
  ['T6', { reply: ['not the lines the thread is on', "How, in the run's words: moved the check into parse()"] }],
  ['T7', { missed: 'needs a maintainer decision' }],
  ['T8', { missed: `reported as addressed, but commit ${SHA.slice(0, 12)} does not change \`src/other.ts\`` }],
  ['T9', { missed: 'the run did not report on this thread' }],
  ['T10', { reply: ['+  --new-flag', "How, in the run's words: renamed the flag"] }],
];

describe('review replies from facts', () => {
  const app = useAppHarness();

  it('review - each thread is judged by the lines the commit changed and the run’s own report; the reply quotes what changed', async () => {
    const fake = fakeRunTask({ planText: `All done.\n${report}`, verdict: 'verified' });
    const ws = fakeWorkspace();
    await app.start({
      github: { permissions: perms, pulls: [ownPr], refs: { [BRANCH]: HEAD }, reviewThreads: threads },
      runTask: fake.runTask,
      workspace: {
        ...ws,
        changedPaths: async () => [...new Set(hunks.map((h) => h.path))],
        changedHunks: async (o) => (o.from === HEAD && o.to === SHA ? hunks : []),
      },
    });
    await app.h.app.runs.recordBranch('acme/widgets', BRANCH, 'r-earlier');
    await app.receive(
      'pull_request_review',
      payload('pull_request_review.submitted', (p) => (p.review.body = '/agent fix')),
      'rf-1',
    );
    await app.done(13);

    const replies = new Map(app.gh.review.replies.map((r) => [r.inReplyTo, r.body]));
    const missed = app.gh.comments.find((c) => c.body.includes('did not address'))?.body ?? '';
    const right: string[] = [];
    const wrong: string[] = [];
    expected.forEach(([key, want], i) => {
      const root = threads[i]!.comments[0]!.id;
      const body = replies.get(root);
      const ok =
        'reply' in want
          ? body !== undefined && want.reply.every((part) => body.includes(part))
          : body === undefined &&
            missed.split('\n').some((l) => l.includes(`src/`) || l.includes('README')) &&
            missed.includes(want.missed);
      (ok ? right : wrong).push(key);
    });
    process.stdout.write(`review threads judged as expected: ${right.length} of ${expected.length}; wrong: ${wrong.join(', ')}\n`);
    expect(wrong).toEqual([]);
    expect(missed).toContain('did not address 4 of 10 unresolved review thread(s)');
    // The model's words cannot mention anyone, and the quoted lines sit in a diff block.
    expect(replies.get(401)).toMatch(/```diff\n@@ -14,1 \+14,1 @@\n- {2}return lines\.slice\(0, -1\);\n\+ {2}return lines;\n```/);
  });
});
