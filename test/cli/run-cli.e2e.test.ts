import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { fixtureRepo, git } from '../e2e/helpers.js';
import { tempDir } from '../kit/temp.js';
import { demoFixScript, runCli } from '../kit/host-cli.js';

describe('proofpr run (the built CLI as a child process)', () => {
  let server: FakeMessagesServer;
  beforeAll(async () => {
    server = await startFakeMessagesServer(demoFixScript());
  });
  afterAll(async () => {
    await server.close();
  });

  it('cli run - against a local Messages API server, fixes the bug, writes the run folder and prints the evidence', async () => {
    const { dir, work } = fixtureRepo();
    const out = join(work, 'run');
    const r = await runCli(['run', '--repo', dir, '--prompt', 'median([10, 9, 2]) should be 9', '--out', out, '--json'], {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-never-logged-0123456789',
      PROOFPR_HOME: join(work, 'home'),
    });
    expect(r.stderr).toContain('turn 1 · Read');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const evidence = JSON.parse(lines[lines.length - 1]!);
    expect(evidence).toMatchObject({ version: 1, verdict: 'verified', task: { kind: 'prompt' } });
    for (const f of ['evidence.json', 'transcript.jsonl', 'summary.md', 'report.html']) expect(existsSync(join(out, f))).toBe(true);
    const transcript = readFileSync(join(out, 'transcript.jsonl'), 'utf8');
    expect(transcript).not.toContain('sk-ant-test-key-never-logged');
    expect(r.stderr).not.toContain('sk-ant-test-key-never-logged');
    expect(git(dir, ['show', `${evidence.repo.branch}:src/stats.js`])).toContain('(a, b) => a - b');
    // The caller's checkout is untouched.
    expect(readFileSync(join(dir, 'src/stats.js'), 'utf8')).toContain('[...values].sort();');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('cli run - a missing ANTHROPIC_API_KEY exits 2 and names the variable', async () => {
    const { dir, work } = fixtureRepo();
    const r = await runCli(['run', '--repo', dir, '--prompt', 'x'], { PROOFPR_HOME: join(work, 'home') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
  });

  it('cli run - bad flags exit 2 and name the flag', async () => {
    const { dir, work } = fixtureRepo();
    const env = { ANTHROPIC_API_KEY: 'k', PROOFPR_HOME: join(work, 'home') };
    expect((await runCli(['run', '--repo', dir, '--prompt', 'x', '--max-turns', 'lots'], env)).stderr).toContain('--max-turns');
    expect((await runCli(['run', '--repo', join(work, 'nope'), '--prompt', 'x'], env)).stderr).toContain('--repo');
    const both = await runCli(['run', '--repo', dir], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--prompt');
    writeFileSync(join(work, 'issue.json'), JSON.stringify({ number: 'twelve', title: 't' }));
    const bad = await runCli(['run', '--repo', dir, '--issue-file', join(work, 'issue.json')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('field "number"');
    expect((await runCli(['run', '--bogus'], env)).code).toBe(2);
  });

  it('cli run - an invalid .github/proofpr.yml exits 2 naming the key path', async () => {
    const { dir, work } = fixtureRepo();
    writeFileSync(join(work, 'bad.yml'), 'test:\n  comand: npm test\n');
    const r = await runCli(['run', '--repo', dir, '--prompt', 'x', '--config', join(work, 'bad.yml')], {
      ANTHROPIC_API_KEY: 'k',
      PROOFPR_HOME: join(work, 'home'),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('test.comand: unknown key');
  });

  it('cli run - a model API that keeps failing ends aborted with exit 4 and still writes evidence', async () => {
    const failing = await startFakeMessagesServer(() => ({
      httpStatus: 400,
      error: { type: 'invalid_request_error', message: 'model: not a valid model id' },
    }));
    try {
      const { dir, work } = fixtureRepo();
      const out = join(work, 'run');
      const r = await runCli(['run', '--repo', dir, '--prompt', 'x', '--out', out], {
        ANTHROPIC_BASE_URL: failing.url,
        ANTHROPIC_API_KEY: 'k',
        PROOFPR_HOME: join(work, 'home'),
      });
      expect(r.code).toBe(4);
      const ev = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8'));
      expect(ev.verdict).toBe('aborted');
      expect(ev.reason).toContain('not a valid model id');
    } finally {
      await failing.close();
    }
  });
});

describe('proofpr report', () => {
  it('cli report - re-renders report.html from a run folder; a folder without evidence exits 2', async () => {
    const { cpSync, rmSync } = await import('node:fs');
    const dir = join(tempDir('proofpr-report-'), 'run');
    cpSync(resolve('test/fixtures/runs/unverified'), dir, { recursive: true });
    rmSync(join(dir, 'report.html'), { force: true });
    const ok = await runCli(['report', dir], {});
    expect(ok.code).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('id="verdict"');
    const bad = await runCli(['report', join(dir, 'nope')], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no evidence.json');
  });
});
