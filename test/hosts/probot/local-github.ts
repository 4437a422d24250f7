/**
 * A local HTTP server that plays a GitHub Enterprise host for the end-to-end test: REST under /api/v3
 * (github-routes.ts) and git smart HTTP through `git http-backend` for /<owner>/<repo>.git. Pushes need
 * the installation token in the Authorization header; every git request's auth is recorded.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGitHubState, type FakeGitHubOptions, type GitHubState } from './github-routes.js';

export interface LocalGitHub {
  host: string;
  url: string;
  state: GitHubState;
  gitRequests: Array<{ path: string; service: string; authorized: boolean }>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => ok(Buffer.concat(parts)));
    req.on('error', fail);
  });
}

function gitBackend(root: string, req: IncomingMessage, res: ServerResponse, pathInfo: string, query: string, body: Buffer): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      CONTENT_LENGTH: String(body.length),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
    },
  });
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.on('close', () => {
    const all = Buffer.concat(out);
    const sep = all.indexOf('\r\n\r\n');
    const head = all.subarray(0, sep).toString('latin1');
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const k = line.slice(0, i).trim();
      const v = line.slice(i + 1).trim();
      if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
      else headers[k] = v;
    }
    res.writeHead(status, headers).end(all.subarray(sep + 4));
  });
  child.stdin.end(body);
}

export async function startLocalGitHub(root: string, token: string, opts: Omit<FakeGitHubOptions, 'refOf'> = {}): Promise<LocalGitHub> {
  const gitRequests: LocalGitHub['gitRequests'] = [];
  const bare = `${root}/acme/widgets.git`;
  const refOf = (branch: string): string | undefined => {
    try {
      return execFileSync('git', ['rev-parse', '--verify', '-q', `refs/heads/${branch}`], { cwd: bare, encoding: 'utf8' }).trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const holder: { state?: GitHubState } = {};
  const expectedAuth = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://local.invalid');
      if (url.pathname.startsWith('/api/v3/')) {
        const parsed = body.length > 0 && String(req.headers['content-type'] ?? '').includes('json') ? (JSON.parse(body.toString('utf8')) as unknown) : undefined;
        const [status, data, headers] = (holder.state as GitHubState).route(req.method ?? 'GET', `${url.pathname.slice('/api/v3'.length)}${url.search}`, parsed);
        const text = typeof data === 'string' ? data : JSON.stringify(data);
        res.writeHead(status, headers ?? { 'content-type': 'application/json; charset=utf-8' }).end(text);
        return;
      }
      if (/^\/[^/]+\/[^/]+\.git\//.test(url.pathname)) {
        const service = url.searchParams.get('service') ?? url.pathname.split('/').pop() ?? '';
        const authorized = String(req.headers.authorization ?? '').toLowerCase() === expectedAuth.toLowerCase();
        gitRequests.push({ path: url.pathname, service, authorized });
        if (!authorized) {
          res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('token required\n');
          return;
        }
        gitBackend(root, req, res, url.pathname, url.search.slice(1), body);
        return;
      }
      res.writeHead(404).end();
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = createGitHubState({ ...opts, refOf }, `http://${host}`);
  holder.state = state;
  return {
    host,
    url: `http://${host}`,
    state,
    gitRequests,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
