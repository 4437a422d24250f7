import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bareEnv } from './git-fixtures.js';

export interface GitHttpServer {
  url: (repo: string) => string;
  /** Authorization headers seen, in order ('' when a request had none). */
  seen: string[];
  close: () => Promise<void>;
}

/**
 * `git http-backend` behind node:http on 127.0.0.1: requests need `Authorization` equal to `accept`
 * (else 401), or get 403 when it equals `forbidden` (a token without the permission).
 */
export async function startGitHttpServer(projectRoot: string, accept: string, forbidden?: string): Promise<GitHttpServer> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(auth);
    if (forbidden && auth === forbidden) return void res.writeHead(403).end('Permission denied');
    if (auth !== accept) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn('git', ['http-backend'], {
      env: bareEnv({
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
      }) as Record<string, string>,
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headerDone = false;
    child.stdout.on('data', (d: Buffer) => {
      if (headerDone) return void res.write(d);
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headerDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => res.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (repo) => `http://127.0.0.1:${port}/${repo}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
