import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { demoFix, said } from '../kit/e2e-script.js';
import { runBaseline } from '../../src/usecases/sweep-baseline.js';
import { repoNeedingInstall, repoWith, runOn } from './readiness-fixtures.js';

const nothing = [said('nothing to do')];

describe('readiness before spending', () => {
  it('readiness - no test command configured or detected: unverified, exit 3, zero model requests, a reason naming test.command', async () => {
    const { dir, work } = repoWith({ demo: false, files: { 'README.md': '# notes\n', 'src/a.js': 'export const a = 1;\n' } });
    const { res, model } = await runOn(dir, work, demoFix('node --test'), parseRepoConfig(''));
    expect(res.exitCode).toBe(3);
    expect(res.evidence.verdict).toBe('unverified');
    expect(res.evidence.reason).toContain('set test.command in .github/proofpr.yml');
    expect(model.requests).toHaveLength(0);
    expect(res.evidence.usage.turns).toBe(0);
    expect(readFileSync(join(res.runDir, 'summary.md'), 'utf8')).toContain('test.command');
  });

  it('readiness - a detected test command (package.json scripts.test): the honest fix is verified, evidence.test says detected and why', async () => {
    const { dir, work } = repoWith();
    const { res, model, events } = await runOn(dir, work, demoFix('npm test'), parseRepoConfig(''));
    expect(res.evidence.reason).not.toContain('not ready');
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.test).toEqual({
      command: 'npm test',
      source: 'detected',
      why: expect.stringContaining('package.json scripts.test runs node:test'),
    });
    expect(model.requests).toHaveLength(4);
    // The red base is recorded (one test fails as shipped), not fatal.
    expect(res.evidence.baseline).toMatchObject({ command: 'npm test', exitCode: 1, counts: { failed: 1 } });
    expect(res.summaryMd).toContain('**Tests:** `npm test` (detected: package.json scripts.test runs node:test');
    expect(res.summaryMd).toContain('**Base:** 🔴 red before any change');
    // Said at the start: the first event carries the sandbox and the commands.
    expect(events[0]).toMatchObject({ type: 'run_start', test: { source: 'detected' } });
    expect(typeof (events[0] as { sandbox?: string }).sandbox).toBe('string');
  });

  it.each([
    {
      title: 'readiness - counts that cannot be read stop the run before the model, naming test.report',
      command: 'echo all good',
      reasons: ['its test counts could not be read', 'test.report'],
    },
    {
      title: 'readiness - a test command that cannot run (exit 127) stops the run, naming the key to fix',
      command: 'no-such-runner-here --all',
      reasons: ['could not run on the base commit: it exited 127', '`no-such-runner-here` was not found (exit 127)', 'test.command'],
    },
  ])('$title', async ({ command, reasons }) => {
    const { dir, work } = repoWith();
    const { res, model } = await runOn(dir, work, demoFix('npm test'), parseRepoConfig(`test:\n  command: ${command}\n`));
    expect(res.exitCode).toBe(3);
    for (const reason of reasons) expect(res.evidence.reason).toContain(reason);
    expect(model.requests).toHaveLength(0);
    expect(res.evidence.test).toMatchObject({ command, source: 'configured' });
  });

  it('readiness - what the baseline run wrote into the worktree is not part of the change', async () => {
    const { dir, work } = repoWith({
      files: {
        'test/stray.test.js':
          "const { test } = require('node:test');\nconst fs = require('node:fs');\ntest('writes', () => fs.writeFileSync('stray-output.txt', 'x'));\n",
      },
    });
    const { res } = await runOn(dir, work, nothing, parseRepoConfig('test:\n  command: node --test\n'));
    expect(res.evidence.baseline?.counts?.passed).toBeGreaterThan(0);
    expect(res.evidence.filesChanged).toEqual([]);
  });

  it('readiness - a detected setup (npm ci from the lock file) runs before the baseline, so tests that need installed dependencies can run', async () => {
    const { dir, work } = repoNeedingInstall();
    const { res } = await runOn(dir, work, nothing, parseRepoConfig(''));
    expect(res.evidence.setup).toMatchObject({ command: 'npm ci', source: 'detected' });
    expect(res.evidence.baseline).toMatchObject({ exitCode: 0, counts: { passed: 1, failed: 0 } });
    expect(res.evidence.filesChanged).toEqual([]);
  });
});

describe('sweep baseline after setup', () => {
  it('sweep baseline - on a repository whose tests need installed dependencies, setup runs first and the base is green', async () => {
    const { dir, work } = repoNeedingInstall();
    const b = await runBaseline({ repoDir: dir, baseRef: 'HEAD', config: parseRepoConfig(''), runDir: join(work, 'run') });
    expect(b.problem).toBeUndefined();
    expect(b.setup).toMatchObject({ command: 'npm ci', source: 'detected' });
    expect(b.test).toMatchObject({ command: 'npm test', source: 'detected' });
    expect(b.run).toMatchObject({ exitCode: 0, counts: { passed: 1, failed: 0 } });
  });

  it('sweep baseline - a failing setup is the cause it reports, not "the tests already fail"', async () => {
    const { dir, work } = repoWith();
    const b = await runBaseline({
      repoDir: dir,
      baseRef: 'HEAD',
      config: parseRepoConfig('setup:\n  command: "echo cannot-install >&2; exit 9"\n'),
      runDir: join(work, 'run'),
    });
    expect(b.run).toBeUndefined();
    expect(b.problem).toContain(
      "the baseline's setup failed: `echo cannot-install >&2; exit 9` (setup.command in .github/proofpr.yml) exited 9 before the agent started.",
    );
    expect(b.problem).toContain('cannot-install');
    const log = /Full output: (\S+)/.exec(b.problem ?? '')?.[1];
    expect(log).toBe(join(work, 'run', 'setup.log'));
    expect(readFileSync(log!, 'utf8')).toContain('cannot-install');
  });
});
