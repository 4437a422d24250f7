/**
 * Review threads of a pull request: the discussions on diff lines. GitHub's GraphQL API is the honest
 * source of "unresolved" (`reviewThreads { isResolved }`); the REST API knows the comments but not which
 * threads were resolved, so its fallback marks every thread unresolved and says so (`source: 'rest'`).
 */

export interface ReviewThreadComment {
  /** The REST id (GraphQL `databaseId`): replies and reactions use it. */
  id: number;
  author: string;
  /** 'Bot' for apps and bots, when GitHub says. */
  authorType?: string;
  /** Untrusted, as written. */
  body: string;
  createdAt: string;
  url?: string;
}

export interface ReviewThread {
  /** GraphQL node id, or `rest-<root comment id>` for the REST fallback. */
  id: string;
  resolved: boolean;
  /** The line it was written on changed since (GitHub still shows it, on the original line). */
  outdated: boolean;
  path: string;
  /** The line in the current diff, else the line it was written on; undefined for a file-level comment. */
  line?: number;
  /** A thread on several lines: its first line (`line` is its last); absent for a one-line thread. */
  startLine?: number;
  /** The first comment starts the thread; a reply goes to it. */
  comments: ReviewThreadComment[];
}

export interface ReviewThreadsPort {
  listThreads(pr: number): Promise<{ threads: ReviewThread[]; source: 'graphql' | 'rest' }>;
  /** A reply in the thread that `commentId` (its first comment) starts. */
  reply(pr: number, commentId: number, body: string): Promise<{ id: number; url: string }>;
}
