/**
 * One failure, one message: a repository whose setup command fails (`npm ci` with no lock file) ends the
 * run with a single message of at most 8 lines (the command, where it came from, its exit, the lines of
 * its output that say why, the kept log path, the fix), no JSON log line, no "internal", no path of the
 * run's scratch folder (gone after the run); the log exists after the run; the state folder made inside
 * the user's checkout leaves it clean for git.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../kit/host-cli.js';
import { tempDir } from '../kit/temp.js';

function repo(): string {
  const dir = tempDir('proofpr-setup-fail-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'node --test' } }));
  mkdirSync(join(dir, '.github'));
  writeFileSync(join(dir, '.github', 'proofpr.yml'), 'setup:\n  command: npm ci\ntest:\n  command: npm test\n');
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'test', 'a.test.js'), "require('node:test')('a', () => {});\n");
  const g = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
  g('init', '-q', '-b', 'main');
  g('add', '-A');
  g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  return dir;
}

describe('a failing setup command', () => {
  it('setup failure - one message of at most 8 lines: command, exit, why, the kept log, the fix', async () => {
    const dir = repo();
    const r = await runCli(
      ['run', '--repo', '.', '--prompt', 'fix it'],
      { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
      { cwd: dir },
    );
    const all = `${r.stdout}${r.stderr}`;
    expect(r.code).toBe(4);
    expect(all).not.toContain('"level"');
    expect(all).not.toMatch(/internal/i);
    const lines = all.split('\n');
    const start = lines.findIndex((l) => l.startsWith('ABORTED: setup failed: `npm ci` (setup.command in .github/proofpr.yml) exited 1'));
    const end = lines.findIndex((l, i) => i > start && l.startsWith('Fix: '));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end - start + 1).toBeLessThanOrEqual(8);
    const message = lines.slice(start, end + 1).join('\n');
    expect(message).toContain('package-lock.json');
    expect(message).toContain(
      'Fix: make `npm ci` pass on a fresh clone of the base commit, or change setup.command in .github/proofpr.yml.',
    );
    expect(all.split('setup failed:').length).toBe(2); // said once
    const log = /^Full output: (.+)$/m.exec(message)?.[1];
    expect(log).toMatch(/\.proofpr\/runs\/[^/]+\/setup\.log$/);
    expect(existsSync(log!)).toBe(true);
    expect(readFileSync(log!, 'utf8')).toContain('npm ci');
    expect(message).not.toMatch(/proofpr-\d{8}-\d{6}-[0-9a-f]+-/); // no path of the run's scratch folder
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
  }, 120_000);

  /** A pytest project whose declared install cannot run here (an invalid requirement; a system Python refuses pip too). */
  function pythonRepo(importsMissing: boolean): string {
    const dir = tempDir('proofpr-setup-py-');
    mkdirSync(join(dir, 'tests'));
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\n');
    writeFileSync(join(dir, 'tests', 'requirements.txt'), 'pytest\nthis is not a requirement !!!\n');
    writeFileSync(join(dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    writeFileSync(
      join(dir, 'tests', 'test_calc.py'),
      `${importsMissing ? 'import attrzz_missing\n' : ''}from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n`,
    );
    const g = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    g('init', '-q', '-b', 'main');
    g('add', '-A');
    g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    return dir;
  }
  const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'error' };

  it('a detected install that fails is no abort: the tests are tried without it and the baseline is counted', async () => {
    const dir = pythonRepo(false);
    const out = join(dir, '.proofpr', 'run');
    await runCli(['run', '--repo', '.', '--prompt', 'fix it', '--out', out], env, { cwd: dir });
    const ev = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as {
      reason: string;
      setup?: { why: string };
      testRuns: Array<{ kind?: string; counts?: { passed: number } }>;
    };
    // No model answers here: the run ends at the first model request, after readiness, not at setup.
    expect(ev.reason).not.toContain('setup failed');
    expect(ev.setup?.why).toContain(
      'the detected install `python3 -m pip install -r tests/requirements.txt` failed, so the tests are tried without it',
    );
    expect(ev.testRuns.find((t) => t.kind === 'baseline')?.counts?.passed).toBe(1);
  }, 120_000);

  it('the tests then fail for a missing module: not ready, naming the install and what it said', async () => {
    const dir = pythonRepo(true);
    const out = join(dir, '.proofpr', 'run');
    const r = await runCli(['run', '--repo', '.', '--prompt', 'fix it', '--out', out], env, { cwd: dir });
    expect(r.code).toBe(3);
    const ev = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as { reason: string };
    expect(ev.reason).toContain('needs the dependencies `python3 -m pip install -r tests/requirements.txt` installs');
    expect(ev.reason).toContain("No module named 'attrzz_missing'");
    expect(ev.reason).toContain('it failed here: setup failed:');
  }, 120_000);
});
