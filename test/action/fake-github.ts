/**
 * A small node:http stand-in for the GitHub REST API (the endpoints proofpr's Octokit port calls), for
 * tests that drive the bundled Action as a child process (nock cannot reach into another process).
 * Branch tips are read from a real bare repository, so pushes are seen as they happen.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
  draft: boolean;
  labels: string[];
  /** Full name of the head repository (default: this repository; another one makes it a fork's PR). */
  headRepo?: string;
}

export interface FakeGitHub {
  url: string;
  owner: string;
  repo: string;
  /** login → permission (admin/write/read); unknown users get 404 (not a collaborator). */
  permissions: Record<string, string>;
  comments: Array<{ id: number; issue: number; body: string; user: string; created_at: string; updated_at: string }>;
  pulls: FakePull[];
  reactions: Array<{ target: string; content: string }>;
  checkRuns: Array<{ head_sha: string; conclusion: string }>;
  /** "METHOD path" of every request, in order. */
  log: string[];
  /** Authorization headers seen. */
  auth: string[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
    });
  });
}

export async function startFakeGitHub(opts: { owner: string; repo: string; bareDir: string; serverUrl: () => string; defaultBranch?: string }): Promise<FakeGitHub> {
  const { owner, repo } = opts;
  let nextId = 1000;
  const state: Omit<FakeGitHub, 'url' | 'close'> = { owner, repo, permissions: {}, comments: [], pulls: [], reactions: [], checkRuns: [], log: [], auth: [] };
  const web = () => `${opts.serverUrl()}/${owner}/${repo}`;
  const pullJson = (p: FakePull) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    state: p.state,
    draft: p.draft,
    html_url: `${web()}/pull/${p.number}`,
    head: { ref: p.head, sha: branchSha(p.head) ?? '0'.repeat(40), repo: { full_name: p.headRepo ?? `${owner}/${repo}` } },
    base: { ref: p.base },
    labels: p.labels.map((name) => ({ name })),
  });
  const branchSha = (b: string): string | undefined => {
    try {
      return execFileSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${b}`], { cwd: opts.bareDir, encoding: 'utf8' }).trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      state.log.push(`${method} ${u.pathname}${u.search}`);
      state.auth.push(String(req.headers.authorization ?? ''));
      const body = method === 'GET' ? {} : await readBody(req);
      const base = `/repos/${owner}/${repo}`;
      const p = u.pathname.startsWith(base) ? u.pathname.slice(base.length) : null;
      let m: RegExpExecArray | null;
      if (p === null) return send(res, 404, { message: 'Not Found' });
      if (p === '' && method === 'GET') return send(res, 200, { name: repo, owner: { login: owner }, default_branch: opts.defaultBranch ?? 'main' });
      if ((m = /^\/collaborators\/([^/]+)\/permission$/.exec(p))) {
        const perm = state.permissions[decodeURIComponent(m[1] ?? '')];
        return perm ? send(res, 200, { permission: perm, role_name: perm, user: { login: m[1] } }) : send(res, 404, { message: 'Not Found' });
      }
      if ((m = /^\/issues\/(\d+)\/comments$/.exec(p))) {
        const issue = Number(m[1]);
        if (method === 'GET') return send(res, 200, state.comments.filter((c) => c.issue === issue).map((c) => ({ ...c, user: { login: c.user, type: 'User' } })));
        const now = new Date().toISOString();
        const c = { id: nextId++, issue, body: String(body.body ?? ''), user: 'github-actions[bot]', created_at: now, updated_at: now };
        state.comments.push(c);
        return send(res, 201, { ...c, html_url: `${web()}/issues/${issue}#issuecomment-${c.id}`, user: { login: c.user, type: 'Bot' } });
      }
      if ((m = /^\/issues\/comments\/(\d+)$/.exec(p)) && method === 'PATCH') {
        const c = state.comments.find((x) => x.id === Number(m?.[1]));
        if (!c) return send(res, 404, { message: 'Not Found' });
        c.body = String(body.body ?? '');
        return send(res, 200, { ...c, html_url: `${web()}/issues/${c.issue}#issuecomment-${c.id}` });
      }
      if ((m = /^\/issues\/comments\/(\d+)\/reactions$/.exec(p)) || (m = /^\/issues\/(\d+)\/reactions$/.exec(p))) {
        state.reactions.push({ target: p, content: String(body.content) });
        return send(res, 201, { id: nextId++, content: body.content });
      }
      if ((m = /^\/issues\/(\d+)\/labels$/.exec(p))) {
        const pr = state.pulls.find((x) => x.number === Number(m?.[1]));
        const labels = (body.labels as string[] | undefined) ?? [];
        if (pr) pr.labels = [...new Set([...pr.labels, ...labels])];
        return send(res, 200, labels.map((name) => ({ name })));
      }
      if (p === '/pulls' && method === 'GET') {
        const st = u.searchParams.get('state') ?? 'open';
        const head = u.searchParams.get('head');
        const list = state.pulls.filter((x) => (st === 'all' || x.state === st) && (!head || `${owner}:${x.head}` === head));
        return send(res, 200, list.map(pullJson));
      }
      if (p === '/pulls' && method === 'POST') {
        const pr: FakePull = { number: nextId++, title: String(body.title), body: String(body.body ?? ''), head: String(body.head), base: String(body.base), state: 'open', draft: body.draft === true, labels: [] };
        state.pulls.push(pr);
        return send(res, 201, pullJson(pr));
      }
      if ((m = /^\/pulls\/(\d+)$/.exec(p))) {
        const pr = state.pulls.find((x) => x.number === Number(m?.[1]));
        if (!pr) return send(res, 404, { message: 'Not Found' });
        if (method === 'PATCH') {
          if (typeof body.title === 'string') pr.title = body.title;
          if (typeof body.body === 'string') pr.body = body.body;
        }
        return send(res, 200, pullJson(pr));
      }
      if ((m = /^\/git\/ref\/(.+)$/.exec(p)) && decodeURIComponent(m[1] ?? '').startsWith('heads/')) {
        const sha = branchSha(decodeURIComponent(m[1] ?? '').slice('heads/'.length));
        return sha ? send(res, 200, { ref: `refs/heads/${m[1]}`, object: { sha, type: 'commit' } }) : send(res, 404, { message: 'Not Found' });
      }
      if (p === '/check-runs' && method === 'POST') {
        state.checkRuns.push({ head_sha: String(body.head_sha), conclusion: String(body.conclusion) });
        return send(res, 201, { id: nextId++ });
      }
      return send(res, 404, { message: `fake GitHub: no route ${method} ${u.pathname}` });
    })().catch((e: unknown) => send(res, 500, { message: String(e) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
