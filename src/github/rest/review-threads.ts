/**
 * ReviewThreadsPort over GitHub's APIs: GraphQL `reviewThreads` (which knows isResolved), with the REST
 * review comments grouped by `in_reply_to_id` as the fallback when GraphQL is not available (a GitHub
 * Enterprise without it, a token it refuses); replies through REST "create a reply for a review comment".
 */
import type { ReviewThread, ReviewThreadComment, ReviewThreadsPort } from '../review-threads-port.js';
import { httpStatus, repoParams, type PortContext } from './rest-octokit.js';
import { logger } from '../../log.js';

const log = logger('review-threads');

const QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 50, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved isOutdated path line originalLine startLine originalStartLine
          comments(first: 50) { nodes { databaseId body createdAt url author { login __typename } } }
        }
      }
    }
  }
}`;

/** At most this many pages of 50 threads are read. */
const MAX_PAGES = 4;

interface GqlComment {
  databaseId: number | null;
  body: string;
  createdAt: string;
  url?: string;
  author: { login: string; __typename?: string } | null;
}
interface GqlThread {
  id: string;
  isResolved: boolean;
  isOutdated: boolean;
  path: string;
  line: number | null;
  originalLine: number | null;
  startLine?: number | null;
  originalStartLine?: number | null;
  comments: { nodes: GqlComment[] };
}
interface GqlAnswer {
  repository: {
    pullRequest: { reviewThreads: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: GqlThread[] } } | null;
  } | null;
}

interface RestReviewComment {
  id: number;
  in_reply_to_id?: number;
  body: string;
  path: string;
  line?: number | null;
  original_line?: number | null;
  start_line?: number | null;
  original_start_line?: number | null;
  created_at: string;
  html_url: string;
  user: { login: string; type?: string } | null;
}

function fromGraphql(t: GqlThread): ReviewThread {
  const comments: ReviewThreadComment[] = [];
  for (const c of t.comments.nodes) {
    if (c.databaseId === null) continue;
    const author = c.author?.login ?? 'ghost';
    comments.push({
      id: c.databaseId,
      author,
      ...(c.author?.__typename === 'Bot' ? { authorType: 'Bot' } : {}),
      body: c.body,
      createdAt: c.createdAt,
      ...(c.url ? { url: c.url } : {}),
    });
  }
  const line = t.line ?? t.originalLine ?? undefined;
  const start = (t.line !== null ? t.startLine : t.originalStartLine) ?? undefined;
  return {
    id: t.id,
    resolved: t.isResolved,
    outdated: t.isOutdated,
    path: t.path,
    ...(line !== undefined ? { line } : {}),
    ...(line !== undefined && start !== undefined && start !== line ? { startLine: start } : {}),
    comments,
  };
}

/** REST review comments → threads: a comment without in_reply_to_id starts one; replies point at it. */
export function threadsFromRest(all: RestReviewComment[]): ReviewThread[] {
  const threads = new Map<number, ReviewThread>();
  const sorted = [...all].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  for (const c of sorted) {
    const comment: ReviewThreadComment = {
      id: c.id,
      author: c.user?.login ?? 'ghost',
      ...(c.user?.type ? { authorType: c.user.type } : {}),
      body: c.body,
      createdAt: c.created_at,
      url: c.html_url,
    };
    const root = c.in_reply_to_id !== undefined ? threads.get(c.in_reply_to_id) : undefined;
    if (root) {
      root.comments.push(comment);
      continue;
    }
    const line = c.line ?? c.original_line ?? undefined;
    const start = (c.line !== null && c.line !== undefined ? c.start_line : c.original_start_line) ?? undefined;
    threads.set(c.id, {
      id: `rest-${c.id}`,
      resolved: false,
      outdated: c.line === null,
      path: c.path,
      ...(line !== undefined && line !== null ? { line } : {}),
      ...(line !== undefined && line !== null && start !== undefined && start !== null && start !== line ? { startLine: start } : {}),
      comments: [comment],
    });
  }
  return [...threads.values()];
}

export function reviewThreadMethods(ctx: PortContext): ReviewThreadsPort {
  const { octokit } = ctx;
  const r = repoParams(ctx);
  const viaGraphql = async (pr: number): Promise<ReviewThread[]> => {
    const out: ReviewThread[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res: GqlAnswer = await octokit.graphql<GqlAnswer>(QUERY, { owner: ctx.owner, repo: ctx.repo, number: pr, after });
      const rt = res.repository?.pullRequest?.reviewThreads;
      if (!rt) throw new Error(`pull request #${pr} not found through GraphQL`);
      out.push(...rt.nodes.map(fromGraphql));
      if (!rt.pageInfo.hasNextPage || !rt.pageInfo.endCursor) break;
      after = rt.pageInfo.endCursor;
    }
    return out;
  };
  return {
    async listThreads(pr) {
      try {
        return { threads: await viaGraphql(pr), source: 'graphql' };
      } catch (e) {
        // A GitHub hiccup is not "no GraphQL here": only a refusal or a GraphQL-level error falls back.
        const status = httpStatus(e);
        if (status !== undefined && status >= 500) throw e;
        log.warn(
          { pr, err: (e as Error).message },
          'GraphQL reviewThreads unavailable: REST review comments instead (resolved threads cannot be told apart)',
        );
        const all = await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...r, pull_number: pr, per_page: 100 });
        return { threads: threadsFromRest(all as RestReviewComment[]), source: 'rest' };
      }
    },
    async reply(pr, commentId, body) {
      const { data } = await octokit.rest.pulls.createReplyForReviewComment({ ...r, pull_number: pr, comment_id: commentId, body });
      return { id: data.id, url: data.html_url };
    },
  };
}
