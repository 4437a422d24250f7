/**
 * Review threads for the GitHub stand-in: GraphQL `reviewThreads` (POST /graphql), the REST review
 * comments of a PR, and REST replies in a thread (recorded in `replies`). Enough for review follow-ups.
 */

export interface FakeThreadComment {
  id: number;
  user: string;
  userType?: string;
  body: string;
  created_at?: string;
}

export interface FakeThread {
  pr: number;
  path: string;
  line?: number;
  /** A thread on several lines: its first line. */
  startLine?: number;
  resolved?: boolean;
  outdated?: boolean;
  comments: FakeThreadComment[];
}

export interface ReviewFakeOptions {
  reviewThreads?: FakeThread[];
  /** GraphQL answers 404 (a host without it): the REST fallback is used. */
  noGraphql?: boolean;
}

export interface ReviewFakeState {
  threads: FakeThread[];
  replies: Array<{ pr: number; inReplyTo: number; body: string; id: number }>;
}

type Reply = [number, unknown, Record<string, string>?];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export function createReviewFake(
  opts: ReviewFakeOptions,
  web: () => string,
  nextId: () => number,
): ReviewFakeState & {
  graphql(body: Json): Reply;
  route(method: string, p: string, body: Json): Reply | undefined;
} {
  const at = new Date(Date.now() - 60_000).toISOString();
  const threads = (opts.reviewThreads ?? []).map((t) => ({ ...t, comments: t.comments.map((c) => ({ ...c })) }));
  const replies: ReviewFakeState['replies'] = [];
  const url = (t: FakeThread, c: FakeThreadComment): string => `${web()}/pull/${t.pr}#discussion_r${c.id}`;
  const restComment = (t: FakeThread, c: FakeThreadComment, i: number): Json => ({
    id: c.id,
    ...(i > 0 ? { in_reply_to_id: t.comments[0]?.id } : {}),
    body: c.body,
    path: t.path,
    line: t.outdated ? null : (t.line ?? null),
    original_line: t.line ?? null,
    start_line: t.outdated ? null : (t.startLine ?? null),
    original_start_line: t.startLine ?? null,
    created_at: c.created_at ?? at,
    html_url: url(t, c),
    user: { login: c.user, type: c.userType ?? (c.user.endsWith('[bot]') ? 'Bot' : 'User') },
  });
  return {
    threads,
    replies,
    graphql(body) {
      if (opts.noGraphql) return [404, { message: 'Not Found' }];
      const number = Number(body?.variables?.number);
      const nodes = threads
        .filter((t) => t.pr === number)
        .map((t, i) => ({
          id: `PRRT_${number}_${i}`,
          isResolved: t.resolved === true,
          isOutdated: t.outdated === true,
          path: t.path,
          line: t.outdated ? null : (t.line ?? null),
          originalLine: t.line ?? null,
          startLine: t.outdated ? null : (t.startLine ?? null),
          originalStartLine: t.startLine ?? null,
          comments: {
            nodes: t.comments.map((c) => ({
              databaseId: c.id,
              body: c.body,
              createdAt: c.created_at ?? at,
              url: url(t, c),
              author: { login: c.user, __typename: (c.userType ?? (c.user.endsWith('[bot]') ? 'Bot' : 'User')) === 'Bot' ? 'Bot' : 'User' },
            })),
          },
        }));
      return [
        200,
        { data: { repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } } } },
      ];
    },
    route(method, p, body) {
      let m: RegExpExecArray | null;
      if (method === 'GET' && (m = /^\/pulls\/(\d+)\/comments$/.exec(p))) {
        const pr = Number(m[1]);
        return [200, threads.filter((t) => t.pr === pr).flatMap((t) => t.comments.map((c, i) => restComment(t, c, i)))];
      }
      if (method === 'POST' && (m = /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/.exec(p))) {
        const pr = Number(m[1]);
        const root = Number(m[2]);
        const t = threads.find((x) => x.pr === pr && x.comments[0]?.id === root);
        if (!t) return [404, { message: 'Not Found' }];
        const c: FakeThreadComment = {
          id: nextId(),
          user: 'proofpr[bot]',
          userType: 'Bot',
          body: String(body?.body ?? ''),
          created_at: new Date().toISOString(),
        };
        t.comments.push(c);
        replies.push({ pr, inReplyTo: root, body: c.body, id: c.id });
        return [201, restComment(t, c, t.comments.length - 1)];
      }
      return undefined;
    },
  };
}
