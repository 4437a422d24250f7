/**
 * docs/github-app.md tells the truth: its examples of `proofpr serve`'s start line, GET /healthz and GET
 * /metrics (after one run) are compared with what a server started here, in-process, really prints and
 * answers. The examples are the fenced blocks after `<!-- example:NAME -->` markers.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import nock from 'nock';
import { silentLogger } from '../../../src/log.js';
import { serveCommand } from '../../../src/hosts/cli/serve.js';
import type { RunningServer } from '../../../src/hosts/probot/server.js';
import type { RunStore } from '../../../src/jobs/run-store.js';
import type { RunTask } from '../../../src/run/run-task-types.js';
import { fakeGitHub } from '../../fakes/github/nock.js';
import { payload } from '../../github/payloads.js';
import { fakeModel, fakeRunTask, fakeWorkspace, testPrivateKey, TestOctokit, until } from './harness.js';
import { tempDir } from '../../kit/temp.js';

/** The fake run's evidence carries the usage its events reported (1200 in, 300 out, $0.02). */
const withUsage =
  (runTask: RunTask): RunTask =>
  async (input) => {
    const r = await runTask(input);
    const usage = { ...r.evidence.usage, inputTokens: 1200, outputTokens: 300, costUsd: 0.02, turns: 1 };
    return { ...r, evidence: { ...r.evidence, usage } };
  };

const doc = readFileSync('docs/github-app.md', 'utf8');

/** The fenced block right after `<!-- example:NAME -->`. */
function example(name: string): string {
  const m = new RegExp(`<!-- example:${name} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!m) throw new Error(`docs/github-app.md has no example:${name} block`);
  return m[1]!;
}

describe('docs/github-app.md - examples match the server', () => {
  const home = tempDir('proofpr-doc-');
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    nock.enableNetConnect();
    nock.restore();
  });

  it('doc - the start line, /healthz and /metrics after one verified run are what the doc shows', async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    fakeGitHub({ permissions: { maintainer: { permission: 'admin' } } });
    const lines: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (lines.push(String(s)), true));
    const signals = new EventEmitter();
    let s: RunningServer | undefined;
    const exited = serveCommand({
      port: 0,
      host: '127.0.0.1',
      cwd: home,
      env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's', PROOFPR_HOME: home, PROOFPR_SWEEP_SCHEDULER: 'off' },
      workspace: fakeWorkspace(),
      modelFactory: () => fakeModel,
      Octokit: TestOctokit,
      progressIntervalMs: 0,
      probotLog: silentLogger,
      runTask: withUsage(fakeRunTask().runTask),
      signals,
      onListening: (x) => (s = x),
    });
    try {
      await until(() => s !== undefined);
      const server = s!;
      // The start line, with this run's port and state folder put back to the doc's.
      const start = lines.find((l) => l.startsWith('proofpr serve: listening'))!.trimEnd();
      expect(start.replace(`port ${server.port}`, 'port 3000').replace(home, '/var/lib/proofpr')).toBe(example('listening'));

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual(JSON.parse(example('healthz')));

      await server.app.probot.receive({ id: 'doc-1', name: 'issue_comment', payload: payload('issue_comment.created') } as never);
      await until(() => (server.app.runs as RunStore).latest('acme/widgets', 12)?.status === 'done');
      const metrics = (await (await fetch(`${server.url}/metrics`)).text()).split('\n');
      for (const line of example('metrics').split('\n')) expect(metrics).toContain(line);
    } finally {
      jest.restoreAllMocks();
      signals.emit('SIGTERM');
      await exited;
      nock.cleanAll();
    }
  });
});
