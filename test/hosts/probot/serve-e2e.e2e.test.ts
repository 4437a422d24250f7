/**
 * End to end: `proofpr serve` as a child process, a local GitHub Enterprise stand-in (REST + git over HTTP
 * through git http-backend) and a local Messages API server replaying the demo session. A signed
 * issue_comment webhook must end with the branch pushed, the PR opened and the status comment verified.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHubServer } from '../../fakes/github/server.js';
import { testPrivateKey, until } from './harness.js';
import { issueBranch } from '../../../src/usecases/branch-name.js';
import { bundleScript } from '../../kit/host-bundle.js';
import { demoFixComment, demoGit, demoIssue, demoRunFinished, startDemoWorld, type DemoWorld } from '../../kit/host-demo-app.js';

const SECRET = 'e2e-secret';

async function bundleServe(): Promise<string> {
  const source = "import { serveCommand } from './src/hosts/cli/serve.ts';\nserveCommand().then((c) => process.exit(c));\n";
  return bundleScript({ source }, 'proofpr-e2e', 'serve');
}

describe('proofpr serve - end to end', () => {
  let world: DemoWorld;
  let gh: FakeGitHubServer;
  let child: ChildProcess | undefined;
  let stderr = '';
  let port = 0;
  let script = '';

  beforeAll(async () => {
    world = await startDemoWorld('proofpr-serve-e2e-');
    gh = world.gh;
    script = await bundleServe();
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.REDIS_URL;
    child = spawn(process.execPath, [script], {
      cwd: world.work,
      env: {
        ...env,
        APP_ID: '1',
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET: SECRET,
        PORT: '0',
        GHE_HOST: gh.host,
        GHE_PROTOCOL: 'http',
        PROOFPR_HOME: join(world.work, 'home'),
        ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
        ANTHROPIC_BASE_URL: world.model.url,
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
    await world?.close();
    if (script) rmSync(script, { force: true });
  });

  it('serve e2e - a signed /agent fix pushes the branch over git HTTP and opens a verified PR', async () => {
    const issue = demoIssue();
    const BRANCH = issueBranch(issue.number, issue.title);
    const body = JSON.stringify(demoFixComment());
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

    await until(() => demoRunFinished(gh), 150000).catch(() => {
      throw new Error(
        `no final status comment. serve stderr:\n${stderr.slice(-4000)}\nGitHub calls:\n${gh.state.calls.map((c) => `${c.method} ${c.path}`).join('\n')}`,
      );
    });
    const status = gh.state.comments.map((c) => c.body).find((b) => b.includes('proofpr:run=')) ?? '';
    expect(status).toContain('Verdict: verified');

    const bare = world.bare;
    const head = demoGit(bare, ['rev-parse', `refs/heads/${BRANCH}`]).trim();
    expect(demoGit(bare, ['diff', '--name-only', 'main', head]).trim().split('\n')).toContain('src/stats.js');
    expect(demoGit(bare, ['log', '-1', '--format=%B', head])).toContain(
      'Co-authored-by: maintainer <1001+maintainer@users.noreply.github.com>',
    );

    const pr = gh.state.calledWith('POST', /\/repos\/acme\/widgets\/pulls$/)[0]?.body as { head: string; base: string; body: string };
    expect(pr).toMatchObject({ head: BRANCH, base: 'main' });
    expect(pr.body).toMatch(/^Fixes #7\n/);
    expect(status).toContain(`http://${gh.host}/acme/widgets/pull/100`);
    expect(gh.state.calledWith('POST', /\/check-runs$/)[0]?.body).toMatchObject({ head_sha: head, conclusion: 'success' });
    expect(gh.gitRequests.some((r) => r.service === 'git-receive-pack' && r.authorized)).toBe(true);
    expect(gh.gitRequests.every((r) => r.authorized)).toBe(true);
    expect(world.model.requests.length).toBeGreaterThanOrEqual(7);
    expect(gh.state.unhandled).toEqual([]);
  }, 180000);
});
