/**
 * One stateful stand-in for the GitHub REST API, shared by the App's, the Action's and the CLI's tests:
 * enough of the API for proofpr's flows, every call recorded. Served through nock (nock.ts, in-process)
 * or a real local HTTP server (server.ts, for child processes and git). Unknown routes answer 500 and are
 * listed in `unhandled`, so a test can assert there were none.
 */
import { execFileSync } from 'node:child_process';
import { createReviewFake, type ReviewFakeOptions, type ReviewFakeState } from './review-routes.js';
import { ciRoute, workflowContents, type CiFakeOptions } from './ci-routes.js';

export const API = 'https://api.github.com';
export const OWNER = 'acme';
export const REPO = 'widgets';

export interface Call {
  method: string;
  /** Path and query, relative to the REST root. */
  path: string;
  body: unknown;
}

export interface FakeComment {
  id: number;
  issue: number;
  /** The latest body; `bodies` holds every version in order. */
  body: string;
  bodies: string[];
  user: string;
  userType: string;
  created_at: string;
  updated_at: string;
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  /** The head's tip (else the live branch, else zeros). */
  headSha?: string;
  /** `full_name` of the head repository: this one unless set; null = a deleted fork. */
  headRepo?: string | null;
  base: string;
  state: 'open' | 'closed';
  /** undefined: the API omits the field (older GitHub Enterprise). */
  draft?: boolean;
  labels: string[];
  /** Login of who opened it ("[bot]" logins are type Bot); undefined: no `user` in the answer. */
  author?: string;
}

export type Permission = string | { permission: string; role_name?: string };

export interface FakeGitHubOptions extends ReviewFakeOptions, CiFakeOptions {
  owner?: string;
  repo?: string;
  /** Web root for html_url (default https://github.com); a function when the port is known later. */
  webUrl?: string | (() => string);
  defaultBranch?: string;
  /** YAML text of .github/proofpr.yml (undefined = no file). */
  config?: string;
  /** Config at other refs (e.g. the base branch of a PR); key = ref. */
  configAt?: Record<string, string>;
  /** Config files of other repositories (`_extends` targets); key = "owner/repo:path". */
  files?: Record<string, string>;
  /** login → permission; unknown users are not collaborators (404). */
  permissions?: Record<string, Permission>;
  comments?: Array<Partial<FakeComment> & { body: string; user: string }>;
  pulls?: Array<Partial<FakePull> & { number: number; head: string; base: string }>;
  /** Branch tips; see also `bareDir`. */
  refs?: Record<string, string>;
  /** Branch tips read live from this bare repository (pushes are seen as they happen). */
  bareDir?: string;
  /** The first request whose "METHOD path" matches answers 500 (a GitHub hiccup). */
  failOnce?: RegExp;
  /** Login of the token's user: the author of comments created through the API. */
  self?: string;
  /** Login the GraphQL `viewer` query answers (the token's identity); default `self`, then proofpr[bot]; `null`: the query fails (a token that may not read it). */
  viewer?: string | null;
  /** The App's slug `GET /app` answers (default proofpr): its bot user is `<slug>[bot]`. */
  appSlug?: string;
}

export interface GitHubState {
  owner: string;
  repo: string;
  calls: Call[];
  unhandled: Call[];
  /** "METHOD path?query" of every request, in order. */
  readonly log: string[];
  /** Authorization header of every request ('' when none). */
  auth: string[];
  permissions: Record<string, Permission>;
  comments: FakeComment[];
  pulls: FakePull[];
  reactions: Array<{ target: string; content: string }>;
  /** Review threads (review-routes.ts): the threads and the replies posted in them. */
  review: ReviewFakeState;
  checkRuns: Array<{
    head_sha: string;
    name: string;
    conclusion: string;
    details_url?: string;
    output?: { title: string; summary: string };
  }>;
  calledWith(method: string, re: RegExp): Call[];
  /** The latest body of a comment ('' when unknown). */
  commentBody(id: number): string;
  /** Answer one request: `uri` relative to the REST root (e.g. /repos/o/r/pulls?head=x). */
  route(method: string, uri: string, body: unknown, headers?: Record<string, string | string[] | undefined>): Reply;
}

export type Reply = [number, unknown, Record<string, string>?];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const notFound: Reply = [404, { message: 'Not Found' }];

export function createGitHubState(opts: FakeGitHubOptions = {}): GitHubState {
  const owner = opts.owner ?? OWNER;
  const repo = opts.repo ?? REPO;
  const webRoot = (): string =>
    (typeof opts.webUrl === 'function' ? opts.webUrl() : (opts.webUrl ?? 'https://github.com')).replace(/\/+$/, '');
  const web = (): string => `${webRoot()}/${owner}/${repo}`;
  let nextId = 900000;
  let failOnce = opts.failOnce;
  const now = (): string => new Date().toISOString();
  const state: Omit<GitHubState, 'log' | 'route' | 'calledWith' | 'commentBody'> = {
    owner,
    repo,
    calls: [],
    unhandled: [],
    auth: [],
    permissions: { ...(opts.permissions ?? {}) },
    comments: (opts.comments ?? []).map((c) => ({
      id: c.id ?? nextId++,
      issue: c.issue ?? 0,
      body: c.body,
      bodies: [c.body],
      user: c.user,
      userType: c.userType ?? (c.user.endsWith('[bot]') ? 'Bot' : 'User'),
      created_at: c.created_at ?? now(),
      updated_at: c.updated_at ?? c.created_at ?? now(),
    })),
    pulls: (opts.pulls ?? []).map((p) => ({ title: `PR ${p.number}`, body: '', state: 'open', draft: false, labels: [], ...p })),
    reactions: [],
    review: { threads: [], replies: [] },
    checkRuns: [],
  };
  const reviewFake = createReviewFake(
    opts,
    () => web(),
    () => nextId++,
  );
  state.review = { threads: reviewFake.threads, replies: reviewFake.replies };

  const branchSha = (b: string): string | undefined => {
    if (opts.refs?.[b]) return opts.refs[b];
    if (!opts.bareDir) return undefined;
    try {
      return (
        execFileSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${b}`], { cwd: opts.bareDir, encoding: 'utf8' }).trim() ||
        undefined
      );
    } catch {
      return undefined;
    }
  };
  const pullJson = (p: FakePull): Json => ({
    number: p.number,
    node_id: `PR_node_${p.number}`,
    title: p.title,
    body: p.body,
    state: p.state,
    ...(p.draft === undefined ? {} : { draft: p.draft }),
    html_url: `${web()}/pull/${p.number}`,
    head: {
      ref: p.head,
      sha: p.headSha ?? branchSha(p.head) ?? '0'.repeat(40),
      repo: p.headRepo === null ? null : { full_name: p.headRepo ?? `${owner}/${repo}` },
    },
    base: { ref: p.base },
    labels: p.labels.map((name) => ({ name })),
    ...(p.author ? { user: { login: p.author, type: p.author.endsWith('[bot]') ? 'Bot' : 'User' } } : {}),
  });
  const commentJson = (c: FakeComment): Json => ({
    id: c.id,
    body: c.body,
    user: { login: c.user, type: c.userType },
    html_url: `${web()}/issues/${c.issue}#issuecomment-${c.id}`,
    created_at: c.created_at,
    updated_at: c.updated_at,
  });

  /** Contents of .github/proofpr.yml (or any file in `files`), raw as Probot's loader asks for it. */
  const contents = (o: string, r: string, path: string, ref: string | null): Reply => {
    const workflow = o === owner && r === repo ? workflowContents(opts, path) : undefined;
    if (workflow) return workflow;
    let text: string | undefined;
    if (o === owner && r === repo && path === '.github/proofpr.yml')
      text = ref && opts.configAt?.[ref] !== undefined ? opts.configAt[ref] : opts.config;
    else text = opts.files?.[`${o}/${r}:${path}`];
    return text === undefined ? notFound : [200, text, { 'content-type': 'text/plain; charset=utf-8' }];
  };

  const repoRoute = (method: string, p: string, url: URL, body: Json): Reply | undefined => {
    let m: RegExpExecArray | null;
    if (method === 'GET' && p === '') return [200, { name: repo, owner: { login: owner }, default_branch: opts.defaultBranch ?? 'main' }];
    if (method === 'GET' && (m = /^\/collaborators\/([^/]+)\/permission$/.exec(p))) {
      const perm = state.permissions[m[1] as string];
      if (perm === undefined) return notFound;
      const o = typeof perm === 'string' ? { permission: perm } : perm;
      return [200, { permission: o.permission, role_name: o.role_name ?? o.permission, user: { login: m[1] } }];
    }
    if (method === 'POST' && /^\/(issues|issues\/comments|pulls\/comments)\/\d+\/reactions$/.test(p)) {
      state.reactions.push({ target: p, content: String(body?.content) });
      return [201, { id: nextId++, content: body?.content }];
    }
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(p))) {
      const issue = Number(m[1]);
      if (method === 'GET') return [200, state.comments.filter((c) => c.issue === issue).map(commentJson)];
      if (method !== 'POST') return undefined;
      const self = opts.self ?? 'proofpr[bot]';
      const c: FakeComment = {
        id: nextId++,
        issue,
        body: String(body?.body ?? ''),
        bodies: [String(body?.body ?? '')],
        user: self,
        userType: 'Bot',
        created_at: now(),
        updated_at: now(),
      };
      state.comments.push(c);
      return [201, commentJson(c)];
    }
    if (method === 'PATCH' && (m = /^\/issues\/comments\/(\d+)$/.exec(p))) {
      const c = state.comments.find((x) => x.id === Number(m?.[1]));
      if (!c) return notFound;
      c.body = String(body?.body ?? '');
      c.bodies.push(c.body);
      c.updated_at = now();
      return [200, commentJson(c)];
    }
    if (method === 'POST' && (m = /^\/issues\/(\d+)\/labels$/.exec(p))) {
      const labels = (body?.labels as string[] | undefined) ?? [];
      const pr = state.pulls.find((x) => x.number === Number(m?.[1]));
      if (pr) pr.labels = [...new Set([...pr.labels, ...labels])];
      return [200, labels.map((name) => ({ name }))];
    }
    return pullRoute(method, p, url, body) ?? miscRoute(method, p, body) ?? reviewFake.route(method, p, body);
  };

  const pullRoute = (method: string, p: string, url: URL, body: Json): Reply | undefined => {
    let m: RegExpExecArray | null;
    if (method === 'GET' && p === '/pulls') {
      const st = url.searchParams.get('state') ?? 'open';
      const head = url.searchParams.get('head');
      const list = state.pulls.filter((x) => (st === 'all' || x.state === st) && (!head || `${owner}:${x.head}` === head));
      return [200, list.map(pullJson)];
    }
    if (method === 'POST' && p === '/pulls') {
      const pr: FakePull = {
        number: 100 + state.pulls.length,
        title: String(body?.title),
        body: String(body?.body ?? ''),
        head: String(body?.head),
        base: String(body?.base),
        state: 'open',
        draft: body?.draft === true,
        labels: [],
        author: opts.self ?? 'proofpr[bot]',
      };
      state.pulls.push(pr);
      return [201, pullJson(pr)];
    }
    if ((m = /^\/pulls\/(\d+)$/.exec(p))) {
      const pr = state.pulls.find((x) => x.number === Number(m?.[1]));
      if (!pr) return notFound;
      if (method === 'PATCH') {
        if (typeof body?.title === 'string') pr.title = body.title;
        if (typeof body?.body === 'string') pr.body = body.body;
      }
      return method === 'GET' || method === 'PATCH' ? [200, pullJson(pr)] : undefined;
    }
    return undefined;
  };

  const miscRoute = (method: string, p: string, body: Json): Reply | undefined => {
    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = /^\/git\/ref\/heads\/(.+)$/.exec(p))) {
      const sha = branchSha(m[1] as string);
      return sha ? [200, { ref: `refs/heads/${m[1]}`, object: { sha, type: 'commit' } }] : notFound;
    }
    if (method === 'POST' && p === '/check-runs') {
      state.checkRuns.push({
        head_sha: String(body?.head_sha),
        name: String(body?.name),
        conclusion: String(body?.conclusion),
        ...(body?.details_url ? { details_url: body.details_url } : {}),
        ...(body?.output ? { output: body.output } : {}),
      });
      return [201, { id: nextId++, ...body }];
    }
    return undefined;
  };

  const route = (method: string, uri: string, body: unknown, headers: Record<string, string | string[] | undefined> = {}): Reply => {
    const url = new URL(uri, 'http://rest.invalid');
    const path = decodeURIComponent(url.pathname);
    const call: Call = { method, path: `${path}${url.search}`, body };
    state.calls.push(call);
    state.auth.push(String(headers.authorization ?? ''));
    if (failOnce && failOnce.test(`${method} ${path}`)) {
      failOnce = undefined;
      return [500, { message: 'Server Error' }];
    }
    let m: RegExpExecArray | null;
    if (method === 'POST' && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
      return [
        201,
        {
          token: 'ghs_fakeinstallationtoken000000000000000',
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
          permissions: {},
          repository_selection: 'all',
        },
      ];
    }
    if (method === 'POST' && path === '/graphql' && /\bviewer\b/.test(String((body as { query?: unknown } | undefined)?.query ?? ''))) {
      if (opts.viewer === null) return [403, { message: 'Resource not accessible by integration' }];
      return [200, { data: { viewer: { login: opts.viewer ?? opts.self ?? 'proofpr[bot]' } } }];
    }
    if (method === 'GET' && path === '/app') return [200, { id: 1, slug: opts.appSlug ?? 'proofpr', name: opts.appSlug ?? 'proofpr' }];
    const query = String((body as { query?: unknown } | undefined)?.query ?? '');
    if (method === 'POST' && path === '/graphql' && /markPullRequestReadyForReview/.test(query)) {
      const id = String((body as { variables?: { id?: unknown } } | undefined)?.variables?.id ?? '');
      const pr = state.pulls.find((x) => `PR_node_${x.number}` === id);
      if (!pr) return [200, { data: null, errors: [{ type: 'NOT_FOUND', message: `no pull request ${id}` }] }];
      pr.draft = false;
      return [200, { data: { markPullRequestReadyForReview: { pullRequest: { number: pr.number, isDraft: false } } } }];
    }
    if (method === 'POST' && path === '/graphql') return reviewFake.graphql(body);
    if (method === 'GET' && (m = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/.exec(path)))
      return contents(m[1] as string, m[2] as string, m[3] as string, url.searchParams.get('ref'));
    const base = `/repos/${owner}/${repo}`;
    const inRepo = path === base || path.startsWith(`${base}/`);
    const reply = inRepo
      ? (repoRoute(method, path.slice(base.length), url, body as Json) ?? ciRoute(opts, method, path.slice(base.length), url))
      : undefined;
    if (reply) return reply;
    state.unhandled.push(call);
    return [500, { message: `fake GitHub: no route ${method} ${path}` }];
  };

  const full = Object.assign(state, {
    route,
    calledWith: (method: string, re: RegExp) => state.calls.filter((c) => c.method === method && re.test(c.path)),
    commentBody: (id: number) => state.comments.find((c) => c.id === id)?.body ?? '',
  });
  Object.defineProperty(full, 'log', { enumerable: true, get: () => state.calls.map((c) => `${c.method} ${c.path}`) });
  return full as GitHubState;
}
