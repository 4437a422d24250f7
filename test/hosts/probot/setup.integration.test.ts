/**
 * `proofpr serve` with no APP_ID runs Probot's own manifest set-up against a fake GitHub (a local server
 * standing in as a GitHub Enterprise host): GET / leads to the "Register GitHub App" form built from
 * app.yml, whose webhook URL is the smee channel or the public URL (never the root path of localhost);
 * GitHub's redirect to /probot/setup?code=… exchanges the code and .env gets APP_ID, PRIVATE_KEY and
 * WEBHOOK_SECRET, which the restarted server reads.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDotEnv, serveCommand } from '../../../src/hosts/cli/serve.js';
import { readServerEnv } from '../../../src/hosts/shared/server-env.js';
import { startServer } from '../../../src/hosts/probot/server.js';
import { silentLogger } from '../../../src/log.js';
import { updateDotEnv, type SetupServer } from '../../../src/hosts/probot/setup.js';
import { WATCHED_EVENTS } from '../../../src/hosts/probot/app.js';
import { testPrivateKey, until } from './harness.js';
import { tempDir } from '../../kit/temp.js';
import { freePort } from '../../kit/host-net.js';

interface FakeGitHub {
  port: number;
  conversions: string[];
  close(): Promise<void>;
}

/** GitHub's manifest conversion: POST /api/v3/app-manifests/{code}/conversions answers the new App. */
async function fakeGitHub(pem: string): Promise<FakeGitHub> {
  const conversions: string[] = [];
  let port = 0;
  const srv: Server = createHttpServer((req, res) => {
    const m = /^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return void res.writeHead(404).end('{}');
    conversions.push(m[1]!);
    res.writeHead(201, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 4242,
        slug: 'proofpr-test',
        client_id: 'Iv1.abc',
        client_secret: 'client-secret-value',
        webhook_secret: 'webhook-secret-value',
        pem,
        html_url: `http://127.0.0.1:${port}/apps/proofpr-test`,
      }),
    );
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', () => ok()));
  port = (srv.address() as { port: number }).port;
  return { port, conversions, close: () => new Promise<void>((ok) => srv.close(() => ok())) };
}

const manifestOf = (html: string): Record<string, unknown> => {
  const m = /name="manifest" id="manifest" value='([^']*)'/.exec(html);
  if (!m) throw new Error(`no manifest in the set-up page: ${html.slice(0, 200)}`);
  return JSON.parse(m[1]!) as Record<string, unknown>;
};

const saved = { GHE_HOST: process.env.GHE_HOST, GHE_PROTOCOL: process.env.GHE_PROTOCOL, WEBHOOK_PROXY_URL: process.env.WEBHOOK_PROXY_URL };

describe('proofpr serve - the App set-up (no APP_ID)', () => {
  let dir: string;
  let github: FakeGitHub;
  let said: string[];
  beforeEach(async () => {
    dir = tempDir('proofpr-setup-');
    github = await fakeGitHub(testPrivateKey());
    process.env.GHE_HOST = `127.0.0.1:${github.port}`;
    process.env.GHE_PROTOCOL = 'http';
    said = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (said.push(String(s)), true));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await github.close();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  /** serve in set-up mode until `body` is done, then SIGTERM; resolves to the exit code. */
  async function inSetup(env: NodeJS.ProcessEnv, body: (s: SetupServer) => Promise<void>, smeeUrl = 'https://smee.io/new-channel-1') {
    const signals = new EventEmitter();
    let setup: SetupServer | undefined;
    let ended = false;
    const smee = { createChannel: () => Promise.resolve(smeeUrl) };
    const exited = serveCommand({
      cwd: dir,
      env: { HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
      signals,
      smee,
      onSetup: (s) => (setup = s),
    }).finally(() => (ended = true));
    await until(() => setup !== undefined || ended);
    if (setup) await body(setup);
    signals.emit('SIGTERM');
    return exited;
  }

  it('setup - GET / leads to the manifest form (webhook: the new smee channel); the callback exchanges the code and writes .env; a restart reads it', async () => {
    const code = await inSetup({}, async (s) => {
      expect(s.webhookUrl).toBe('https://smee.io/new-channel-1');
      const root = await fetch(`http://127.0.0.1:${s.port}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/probot');
      const page = await fetch(`http://127.0.0.1:${s.port}/probot`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`action="http://127.0.0.1:${github.port}/settings/apps/new"`);
      const manifest = manifestOf(html) as {
        hook_attributes: { url: string };
        redirect_url: string;
        name: string;
        default_events: string[];
      };
      expect(manifest.hook_attributes.url).toBe('https://smee.io/new-channel-1');
      expect(manifest.redirect_url).toBe(`http://127.0.0.1:${s.port}/probot/setup`);
      expect(manifest.name).toBe('proofpr');
      const handled = [...new Set(WATCHED_EVENTS.map((e) => e.split('.')[0]!))];
      expect([...manifest.default_events].sort()).toEqual(
        [...new Set([...handled, 'check_run', 'check_suite', 'status', 'push', 'pull_request'])].sort(),
      );

      const back = await fetch(`http://127.0.0.1:${s.port}/probot/setup?code=the-code`, { redirect: 'manual' });
      expect(back.status).toBe(302);
      expect(back.headers.get('location')).toBe(`http://127.0.0.1:${github.port}/apps/proofpr-test/installations/new`);
    });
    expect(code).toBe(0);
    expect(github.conversions).toEqual(['the-code']);
    const env: NodeJS.ProcessEnv = {};
    loadDotEnv(dir, env);
    expect(env).toMatchObject({
      APP_ID: '4242',
      WEBHOOK_SECRET: 'webhook-secret-value',
      WEBHOOK_PROXY_URL: 'https://smee.io/new-channel-1',
    });
    const restarted = readServerEnv({ ...env, GHE_HOST: undefined, GHE_PROTOCOL: undefined }, dir);
    expect(restarted.appId).toBe('4242');
    expect(restarted.privateKey).toBe(testPrivateKey());
    expect(existsSync(join(dir, 'app.yml'))).toBe(true);
    const out = said.join('');
    expect(out).toContain('no APP_ID, so this is the App set-up');
    expect(out).toContain('run `proofpr serve` again');
    expect(out).not.toContain('webhook-secret-value');
    expect(out).not.toContain('BEGIN');
  });

  it('setup - PROOFPR_PUBLIC_URL: the manifest webhook URL is that URL plus the webhook path, not its root', async () => {
    const code = await inSetup({ PROOFPR_PUBLIC_URL: 'https://proofpr.example.org/' }, async (s) => {
      const manifest = manifestOf(await (await fetch(`http://127.0.0.1:${s.port}/probot`)).text()) as { hook_attributes: { url: string } };
      expect(manifest.hook_attributes.url).toBe('https://proofpr.example.org/api/github/webhooks');
    });
    expect(code).toBe(0);
    expect(existsSync(join(dir, '.env'))).toBe(false);
  });

  it('setup - WEBHOOK_PROXY_URL already set is the webhook URL; no new channel is made', async () => {
    const code = await inSetup({ WEBHOOK_PROXY_URL: 'https://smee.io/mine' }, async (s) => {
      const manifest = manifestOf(await (await fetch(`http://127.0.0.1:${s.port}/probot`)).text()) as { hook_attributes: { url: string } };
      expect(manifest.hook_attributes.url).toBe('https://smee.io/mine');
    });
    expect(code).toBe(0);
  });

  it('setup - a localhost PROOFPR_PUBLIC_URL, or no smee channel and no public URL, stops with exit 2 naming the fix', async () => {
    expect(await inSetup({ PROOFPR_PUBLIC_URL: 'http://localhost:3000' }, () => Promise.resolve())).toBe(2);
    expect(said.join('')).toContain('PROOFPR_PUBLIC_URL must be an http(s) URL GitHub can reach (not localhost:3000)');
    said.length = 0;
    const signals = new EventEmitter();
    const smee = { createChannel: () => Promise.reject(new Error('getaddrinfo ENOTFOUND smee.io')) };
    expect(await serveCommand({ cwd: dir, env: { HOST: '127.0.0.1', PORT: String(await freePort()) }, signals, smee })).toBe(2);
    expect(said.join('')).toContain(
      'no webhook URL GitHub can reach (a new smee.io channel failed: getaddrinfo ENOTFOUND smee.io): set WEBHOOK_PROXY_URL to a smee.io channel',
    );
  });
});

describe('proofpr serve - missing settings', () => {
  it('serve - every missing variable is named in one message, each with its fix', async () => {
    const signals = new EventEmitter();
    const lines: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (lines.push(String(s)), true));
    const dir = tempDir('proofpr-setup-missing-');
    try {
      const code = await serveCommand({ cwd: dir, env: { NODE_ENV: 'production', PROOFPR_HOME: dir }, signals });
      expect(code).toBe(2);
    } finally {
      jest.restoreAllMocks();
    }
    const out = lines.join('');
    expect(out).toContain('4 settings to fix (in the environment or .env):\n');
    // One item a setting, in the order of the message, each naming the fix.
    expect(out.split('\n').filter((l) => l.startsWith('  - '))).toEqual([
      expect.stringMatching(/^ {2}- APP_ID is missing: set it to your GitHub App id/),
      expect.stringMatching(/^ {2}- WEBHOOK_SECRET is missing: set it to the webhook secret of your GitHub App/),
      expect.stringMatching(/^ {2}- PRIVATE_KEY or PRIVATE_KEY_PATH is missing: set one to the App private key \(\.pem\)/),
      expect.stringMatching(/^ {2}- ANTHROPIC_API_KEY is missing: set it in the environment \(or \.env\) of `proofpr serve`/),
    ]);
  });

  it('serve - with PROOFPR_PROVIDER=bedrock no ANTHROPIC_API_KEY is asked for', async () => {
    const dir = tempDir('proofpr-setup-provider-');
    const env = { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's', PROOFPR_HOME: dir, PROOFPR_SWEEP_SCHEDULER: 'off' };
    await expect(startServer({ port: 0, host: '127.0.0.1', env, probotLog: silentLogger })).rejects.toThrow(/ANTHROPIC_API_KEY is missing/);
    const s = await startServer({ port: 0, host: '127.0.0.1', env: { ...env, PROOFPR_PROVIDER: 'bedrock' }, probotLog: silentLogger });
    await s.close();
  });

  it('setup - .env: the new keys replace their old lines, other lines are kept, the PEM stays on one line', () => {
    const dir = tempDir('proofpr-setup-env-');
    writeFileSync(join(dir, '.env'), '# mine\nANTHROPIC_API_KEY=k\nAPP_ID=1\n');
    updateDotEnv(dir, { APP_ID: '2', PRIVATE_KEY: '"-----BEGIN X-----\nabc\n-----END X-----"' });
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(
      '# mine\nANTHROPIC_API_KEY=k\nAPP_ID=2\nPRIVATE_KEY="-----BEGIN X-----\\nabc\\n-----END X-----"\n',
    );
    const env: NodeJS.ProcessEnv = {};
    loadDotEnv(dir, env);
    expect(env.PRIVATE_KEY).toBe('-----BEGIN X-----\nabc\n-----END X-----');
  });
});

afterAll(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});
