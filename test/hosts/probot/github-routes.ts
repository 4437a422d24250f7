/**
 * A stateful GitHub REST stand-in: enough of the API for the App's flows, with every call recorded.
 * Served through nock (fake-github.ts) or a real local HTTP server (the end-to-end test). Unknown routes
 * answer 500 and are listed in `unhandled` so a test can assert there were none.
 */
export const API = 'https://api.github.com';
export const OWNER = 'acme';
export const REPO = 'widgets';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeGitHubOptions {
  /** YAML text of .github/proofpr.yml (undefined = no file). */
  config?: string;
  /** Config at other refs (e.g. the base branch of a PR); key = ref. */
  configAt?: Record<string, string>;
  permissions?: Record<string, { permission: string; role_name?: string }>;
  comments?: Array<{ id: number; body: string; user: { login: string; type: string }; created_at: string; updated_at: string }>;
  /** head.repo defaults to the base repository; give another full_name for a fork's PR. */
  pulls?: Array<{ number: number; head: { ref: string; sha: string; repo?: { full_name: string } | null }; base: { ref: string }; state: string; html_url?: string; draft?: boolean }>;
  refs?: Record<string, string>;
  /** The first request whose "METHOD path" matches answers 500 (a GitHub hiccup). */
  failOnce?: RegExp;
  /** Live branch lookup (the end-to-end test reads the real bare repository). */
  refOf?: (branch: string) => string | undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface GitHubState {
  calls: Call[];
  unhandled: Call[];
  comments: Map<number, { issue: number; bodies: string[] }>;
  pulls: Json[];
  calledWith(method: string, re: RegExp): Call[];
  /** The latest body of a comment. */
  commentBody(id: number): string;
  /** Answer one request: path relative to the REST root (e.g. /repos/o/r/pulls?head=x). */
  route(method: string, uri: string, body: unknown): [number, unknown, Record<string, string>?];
}

export function createGitHubState(opts: FakeGitHubOptions = {}, web = 'https://github.com'): GitHubState {
  const calls: Call[] = [];
  const unhandled: Call[] = [];
  const comments = new Map<number, { issue: number; bodies: string[] }>();
  const pulls: Json[] = (opts.pulls ?? []).map((p) => ({ html_url: `${web}/${OWNER}/${REPO}/pull/${p.number}`, draft: false, ...p, head: { repo: { full_name: `${OWNER}/${REPO}` }, ...p.head } }));
  let nextId = 900000;
  let failOnce = opts.failOnce;
  const repoPath = `/repos/${OWNER}/${REPO}`;

  const route = (method: string, uri: string, body: unknown): [number, Json, Record<string, string>?] => {
    const url = new URL(uri, 'http://rest.invalid');
    const path = decodeURIComponent(url.pathname);
    calls.push({ method, path: `${path}${url.search}`, body });
    if (failOnce && failOnce.test(`${method} ${path}`)) {
      failOnce = undefined;
      return [500, { message: 'Server Error' }];
    }
    let m: RegExpExecArray | null;
    if (method === 'POST' && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
      return [201, { token: 'ghs_fakeinstallationtoken000000000000000', expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: {}, repository_selection: 'all' }];
    }
    if (method === 'GET' && (m = /^\/repos\/([^/]+)\/([^/]+)\/contents\/\.github\/proofpr\.yml$/.exec(path))) {
      const ref = url.searchParams.get('ref');
      const text = m[2] === REPO ? (ref && opts.configAt?.[ref] !== undefined ? opts.configAt[ref] : opts.config) : undefined;
      if (text === undefined) return [404, { message: 'Not Found' }];
      return [200, text, { 'content-type': 'text/plain; charset=utf-8' }];
    }
    if (!path.startsWith(repoPath)) return [500, { message: `unhandled ${method} ${path}` }];
    const p = path.slice(repoPath.length);
    if (method === 'GET' && p === '') return [200, { name: REPO, default_branch: 'main' }];
    if (method === 'GET' && (m = /^\/collaborators\/([^/]+)\/permission$/.exec(p))) {
      const perm = opts.permissions?.[m[1] as string];
      return [200, { permission: perm?.permission ?? 'none', role_name: perm?.role_name ?? perm?.permission ?? 'none', user: { login: m[1] } }];
    }
    if (method === 'POST' && /^\/(issues|issues\/comments|pulls\/comments)\/\d+\/reactions$/.test(p)) return [201, { id: 1, content: (body as Json).content }];
    if (method === 'POST' && (m = /^\/issues\/(\d+)\/comments$/.exec(p))) {
      const id = nextId++;
      comments.set(id, { issue: Number(m[1]), bodies: [(body as Json).body] });
      return [201, { id, body: (body as Json).body, html_url: `${web}/${OWNER}/${REPO}/issues/${m[1]}#issuecomment-${id}` }];
    }
    if (method === 'PATCH' && (m = /^\/issues\/comments\/(\d+)$/.exec(p))) {
      const c = comments.get(Number(m[1])) ?? { issue: 0, bodies: [] };
      c.bodies.push((body as Json).body);
      comments.set(Number(m[1]), c);
      return [200, { id: Number(m[1]), body: (body as Json).body }];
    }
    if (method === 'GET' && /^\/issues\/\d+\/comments$/.test(p)) return [200, opts.comments ?? []];
    if (method === 'GET' && p === '/pulls') {
      const head = url.searchParams.get('head')?.split(':')[1];
      return [200, pulls.filter((x) => x.head.ref === head)];
    }
    if (method === 'GET' && (m = /^\/pulls\/(\d+)$/.exec(p))) {
      const pr = pulls.find((x) => x.number === Number(m?.[1]));
      return pr ? [200, pr] : [404, { message: 'Not Found' }];
    }
    if (method === 'POST' && p === '/pulls') {
      const b = body as Json;
      const pr = { number: 100 + pulls.length, html_url: `${web}/${OWNER}/${REPO}/pull/${100 + pulls.length}`, title: b.title, body: b.body, draft: b.draft, state: 'open', head: { ref: b.head, sha: 'f'.repeat(40), repo: { full_name: `${OWNER}/${REPO}` } }, base: { ref: b.base } };
      pulls.push(pr);
      return [201, pr];
    }
    if (method === 'PATCH' && (m = /^\/pulls\/(\d+)$/.exec(p))) {
      const pr = pulls.find((x) => x.number === Number(m?.[1]));
      if (!pr) return [404, { message: 'Not Found' }];
      Object.assign(pr, body);
      return [200, pr];
    }
    if (method === 'POST' && /^\/issues\/\d+\/labels$/.test(p)) return [200, ((body as Json).labels as string[]).map((name) => ({ name }))];
    if (method === 'POST' && p === '/check-runs') return [201, { id: 1, ...(body as Json) }];
    if (method === 'GET' && (m = /^\/git\/ref\/heads\/(.+)$/.exec(p))) {
      const sha = opts.refOf ? opts.refOf(m[1] as string) : opts.refs?.[m[1] as string];
      return sha ? [200, { ref: `refs/heads/${m[1]}`, object: { sha, type: 'commit' } }] : [404, { message: 'Not Found' }];
    }
    unhandled.push(calls[calls.length - 1] as Call);
    return [500, { message: `unhandled ${method} ${path}` }];
  };

  return {
    calls,
    unhandled,
    comments,
    pulls,
    route,
    calledWith: (method, re) => calls.filter((c) => c.method === method && re.test(c.path)),
    commentBody: (id) => comments.get(id)?.bodies.at(-1) ?? '',
  };
}
