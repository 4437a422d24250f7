import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecHandle } from '../../src/workspace/exec.js';
import { noCachedTestResults } from '../../src/workspace/build-cache-seed.js';
import { openExec } from '../kit/walls-exec.js';

const setup = (sandbox: 'off' | 'required') => openExec('proofpr-seed-', { sandbox });

const CACHE = '$HOME/.cache/go-build';

describe('the Go build cache seed of the harness runs', () => {
  it.each(['off', 'required'] as const)(
    'sandbox %s: the baseline run leaves the seed; each later fresh home gets a private copy; the shared home a copy once',
    async (sandbox) => {
      const { h, root, run } = await setup(sandbox);
      const x = (command: string, extra: Partial<Parameters<ExecHandle['exec']>[0]> = {}) =>
        h.exec({ command, cwd: root, timeoutMs: 20_000, ...extra });
      // Before any seed: a fresh home has no build cache.
      expect((await x(`ls ${CACHE} 2>&1 || echo none`, { home: 'fresh' })).output).toContain('none');
      // The baseline's cache becomes the seed.
      const base = await x(`mkdir -p ${CACHE} && echo compiled > ${CACHE}/std`, { home: 'fresh', seedBuildCache: true });
      expect(base.exitCode).toBe(0);
      expect(readFileSync(join(run, 'build-cache-seed', 'go-build', 'std'), 'utf8')).toBe('compiled\n');
      // A later harness run sees it, and what it writes there (the agent's code runs in the final run) stays its own.
      const final = await x(`cat ${CACHE}/std && echo poisoned > ${CACHE}/std && echo extra > ${CACHE}/more`, { home: 'fresh' });
      expect(final.output).toBe('compiled\n');
      const kept = await x(`cat ${CACHE}/std; ls ${CACHE}`, { home: 'fresh' });
      expect(kept.output).toBe('compiled\nstd\n');
      expect(readFileSync(join(run, 'build-cache-seed', 'go-build', 'std'), 'utf8')).toBe('compiled\n');
      // A second seeding run changes nothing: the first seed is kept.
      await x(`mkdir -p ${CACHE} && echo other > ${CACHE}/std`, { home: 'fresh', seedBuildCache: true });
      expect((await x(`cat ${CACHE}/std`, { home: 'fresh' })).output).toBe('compiled\n');
      // The agent's shared home got a copy of the first seed; what it writes there is its own.
      expect((await x(`cat ${CACHE}/std && echo mine > ${CACHE}/std`)).output).toBe('compiled\n');
      expect((await x(`cat ${CACHE}/std`, { home: 'fresh' })).output).toBe('compiled\n');
    },
  );

  it('a harness run gets -count=1 in GOFLAGS (no replayed test result); the shared home does not', async () => {
    const { h, root } = await setup('off');
    const fresh = await h.exec({ command: 'echo "[$GOFLAGS]"', cwd: root, timeoutMs: 5000, home: 'fresh' });
    expect(fresh.output).toBe('[-count=1]\n');
    const shared = await h.exec({ command: 'echo "[${GOFLAGS-unset}]"', cwd: root, timeoutMs: 5000 });
    expect(shared.output).toBe('[unset]\n');
  });

  it('noCachedTestResults adds -count=1 to the flags there are, unless a -count is set', () => {
    expect(noCachedTestResults(undefined)).toBe('-count=1');
    expect(noCachedTestResults(' -modcacherw ')).toBe('-modcacherw -count=1');
    expect(noCachedTestResults('-count=3 -modcacherw')).toBe('-count=3 -modcacherw');
    expect(noCachedTestResults('--count=2')).toBe('--count=2');
    expect(noCachedTestResults('-counter=1')).toBe('-counter=1 -count=1');
  });

  it('a fresh home without a seed and a seeding run that wrote no cache leave no seed', async () => {
    const { h, root, run } = await setup('off');
    await h.exec({ command: 'true', cwd: root, timeoutMs: 5000, home: 'fresh', seedBuildCache: true });
    expect(existsSync(join(run, 'build-cache-seed'))).toBe(false);
    writeFileSync(join(root, 'f'), 'x');
    expect((await h.exec({ command: 'ls -A "$HOME"', cwd: root, timeoutMs: 5000, home: 'fresh' })).output).toBe('');
  });
});
