/**
 * End to end: `proofpr serve` as a child process, a local GitHub Enterprise stand-in (REST + git over HTTP
 * through git http-backend) and a local Messages API server replaying the demo session. A signed
 * issue_comment webhook must end with the branch pushed, the PR opened and the status comment verified.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../fakes/fake-server.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../fakes/github/server.js';
import { testPrivateKey, until } from './harness.js';
import { payload } from '../../github/payloads.js';
import { issueBranch } from '../../../src/usecases/branch-name.js';
import { tempDir } from '../../kit/temp.js';

const root = process.cwd();
const SECRET = 'e2e-secret';
const TOKEN = 'ghs_fakeinstallationtoken000000000000000';

const git = (cwd: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });

interface SessionTurn {
  type: string;
  content: unknown[];
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

/** The demo session's assistant turns as Messages API message objects. */
function sessionMessages(): unknown[] {
  return readFileSync(join(root, 'examples/demo/session.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SessionTurn)
    .filter((e) => e.type === 'assistant')
    .map((e, i) => ({
      id: `msg_e2e_${i + 1}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: e.content,
      stop_reason: e.stopReason,
      usage: {
        input_tokens: e.usage.inputTokens,
        output_tokens: e.usage.outputTokens,
        cache_read_input_tokens: e.usage.cacheReadTokens,
        cache_creation_input_tokens: e.usage.cacheWriteTokens,
      },
    }));
}

async function bundleServe(): Promise<string> {
  const out = join(root, 'node_modules', '.cache', 'proofpr-e2e', `serve-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: "import { serveCommand } from './src/hosts/cli/serve.ts';\nserveCommand().then((c) => process.exit(c));\n",
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'serve-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: out,
    logLevel: 'warning',
  });
  return out;
}

describe('proofpr serve - end to end', () => {
  let work: string;
  let gh: FakeGitHubServer;
  let model: FakeMessagesServer;
  let child: ChildProcess | undefined;
  let stderr = '';
  let port = 0;
  let script = '';

  beforeAll(async () => {
    work = tempDir('proofpr-serve-e2e-');
    const seed = join(work, 'seed');
    cpSync(join(root, 'examples/demo/repo'), seed, { recursive: true });
    git(seed, ['init', '-q', '-b', 'main']);
    git(seed, ['add', '-A']);
    git(seed, ['commit', '-q', '-m', 'initial']);
    const gitRoot = join(work, 'git');
    git(work, ['clone', '-q', '--bare', seed, join(gitRoot, 'acme', 'widgets.git')]);
    git(join(gitRoot, 'acme', 'widgets.git'), ['config', 'http.receivepack', 'true']);

    gh = await startFakeGitHubServer({
      apiPrefix: '/api/v3',
      git: { root: gitRoot, token: TOKEN },
      bareDir: join(gitRoot, 'acme', 'widgets.git'),
      config: readFileSync(join(seed, '.github', 'proofpr.yml'), 'utf8'),
      permissions: { maintainer: { permission: 'write', role_name: 'write' } },
    });
    const turns = sessionMessages();
    model = await startFakeMessagesServer(
      (_body, n) =>
        turns[n - 1] ?? {
          content: [{ type: 'text', text: 'Done.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
    );

    script = await bundleServe();
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.REDIS_URL;
    child = spawn(process.execPath, [script], {
      cwd: work,
      env: {
        ...env,
        APP_ID: '1',
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET: SECRET,
        PORT: '0',
        GHE_HOST: gh.host,
        GHE_PROTOCOL: 'http',
        PROOFPR_HOME: join(work, 'home'),
        ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
        ANTHROPIC_BASE_URL: model.url,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on port (\d+)/.exec(stderr);
      if (m) port = Number(m[1]);
    });
    await until(() => port > 0 || child?.exitCode !== null, 30000);
    if (port === 0) throw new Error(`proofpr serve did not start:\n${stderr}`);
  }, 90000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child?.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
    await model?.close();
    await gh?.close();
    rmSync(work, { recursive: true, force: true });
    if (script) rmSync(script, { force: true });
  });

  it('serve e2e - a signed /agent fix pushes the branch over git HTTP and opens a verified PR', async () => {
    const issue = JSON.parse(readFileSync(join(root, 'examples/demo/issue.json'), 'utf8')) as {
      number: number;
      title: string;
      body: string;
    };
    const BRANCH = issueBranch(issue.number, issue.title);
    const body = JSON.stringify(
      payload('issue_comment.created', (p) => {
        p.issue.number = issue.number;
        p.issue.title = issue.title;
        p.issue.body = issue.body;
        p.comment.body = '/agent fix';
      }),
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'e2e-1',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(res.status).toBe(200);

    const statusDone = (): boolean => gh.state.comments.some((c) => /proofpr:run=[\s\S]*(done|failed|aborted)/.test(c.body));
    await until(statusDone, 150000).catch(() => {
      throw new Error(
        `no final status comment. serve stderr:\n${stderr.slice(-4000)}\nGitHub calls:\n${gh.state.calls.map((c) => `${c.method} ${c.path}`).join('\n')}`,
      );
    });
    const status = gh.state.comments.map((c) => c.body).find((b) => b.includes('proofpr:run=')) ?? '';
    expect(status).toContain('Verdict: verified');

    const bare = join(work, 'git', 'acme', 'widgets.git');
    const head = git(bare, ['rev-parse', `refs/heads/${BRANCH}`]).trim();
    expect(git(bare, ['diff', '--name-only', 'main', head]).trim().split('\n')).toContain('src/stats.js');
    expect(git(bare, ['log', '-1', '--format=%B', head])).toContain(
      'Co-authored-by: maintainer <1001+maintainer@users.noreply.github.com>',
    );

    const pr = gh.state.calledWith('POST', /\/repos\/acme\/widgets\/pulls$/)[0]?.body as { head: string; base: string; body: string };
    expect(pr).toMatchObject({ head: BRANCH, base: 'main' });
    expect(pr.body).toMatch(/^Fixes #7\n/);
    expect(status).toContain(`http://${gh.host}/acme/widgets/pull/100`);
    expect(gh.state.calledWith('POST', /\/check-runs$/)[0]?.body).toMatchObject({ head_sha: head, conclusion: 'success' });
    expect(gh.gitRequests.some((r) => r.service === 'git-receive-pack' && r.authorized)).toBe(true);
    expect(gh.gitRequests.every((r) => r.authorized)).toBe(true);
    expect(model.requests.length).toBeGreaterThanOrEqual(7);
    expect(gh.state.unhandled).toEqual([]);
  }, 180000);
});
