/**
 * The GitHub stand-in (state.ts) behind a real local HTTP server, for tests whose GitHub client runs in
 * another process (the bundled Action, the CLI) or needs git too: REST at `apiPrefix` ('' like
 * GITHUB_API_URL, or '/api/v3' like a GitHub Enterprise host), and with `git` also smart HTTP through
 * `git http-backend` for /<owner>/<repo>.git, which needs the token (every git request's auth recorded).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGitHubState, type FakeGitHubOptions, type GitHubState } from './state.js';

export interface FakeGitHubServer {
  host: string;
  /** http://127.0.0.1:port */
  url: string;
  /** The REST root: url + apiPrefix. */
  apiUrl: string;
  state: GitHubState;
  gitRequests: Array<{ path: string; service: string; authorized: boolean }>;
  close(): Promise<void>;
}

export interface FakeGitHubServerOptions extends Omit<FakeGitHubOptions, 'webUrl'> {
  apiPrefix?: '' | '/api/v3';
  /** Serve git for repositories under `root` (bare repos at <root>/<owner>/<repo>.git), behind `token`. */
  git?: { root: string; token: string };
  /** Web root for html_url when git is served elsewhere (default: this server). */
  webUrl?: () => string;
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
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of all.subarray(0, sep).toString('latin1').split('\r\n')) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const k = line.slice(0, i).trim();
      const v = line.slice(i + 1).trim();
      if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
      else headers[k] = v;
    }
    res.writeHead(status, headers).end(all.subarray(sep + 4));
  });
  // git may answer and exit before reading the whole request (a negotiation it ends early): EPIPE then is no error.
  child.stdin.on('error', () => undefined);
  child.stdin.end(body);
}

export async function startFakeGitHubServer(opts: FakeGitHubServerOptions = {}): Promise<FakeGitHubServer> {
  const prefix = opts.apiPrefix ?? '';
  const gitRequests: FakeGitHubServer['gitRequests'] = [];
  const holder: { url?: string } = {};
  const state = createGitHubState({ ...opts, webUrl: opts.webUrl ?? (() => holder.url ?? '') });
  const expectedAuth = opts.git ? `basic ${Buffer.from(`x-access-token:${opts.git.token}`).toString('base64')}`.toLowerCase() : '';
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://local.invalid');
      if (opts.git && /^\/[^/]+\/[^/]+\.git\//.test(url.pathname)) {
        const service = url.searchParams.get('service') ?? url.pathname.split('/').pop() ?? '';
        const authorized = String(req.headers.authorization ?? '').toLowerCase() === expectedAuth;
        gitRequests.push({ path: url.pathname, service, authorized });
        if (!authorized) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('token required\n');
        return gitBackend(opts.git.root, req, res, url.pathname, url.search.slice(1), body);
      }
      if (!url.pathname.startsWith(`${prefix}/`)) return void res.writeHead(404).end();
      const parsed =
        body.length > 0 && String(req.headers['content-type'] ?? '').includes('json')
          ? (JSON.parse(body.toString('utf8')) as unknown)
          : undefined;
      const [status, data, headers] = state.route(
        req.method ?? 'GET',
        `${url.pathname.slice(prefix.length)}${url.search}`,
        parsed,
        req.headers,
      );
      res
        .writeHead(status, headers ?? { 'content-type': 'application/json; charset=utf-8' })
        .end(typeof data === 'string' ? data : JSON.stringify(data));
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  holder.url = `http://${host}`;
  return {
    host,
    url: holder.url,
    apiUrl: `${holder.url}${prefix}`,
    state,
    gitRequests,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
