import { describe, it, expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireLock, withLock } from '../../src/workspace/lock.js';
import { tempDir } from './git-fixtures.js';

describe('lock', () => {
  it('lock - runs holders one at a time and removes the file afterwards', async () => {
    const file = join(tempDir(), 'repo.lock');
    const order: string[] = [];
    const job = (name: string) =>
      withLock(file, async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`${name}-`);
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]?.replace('+', '-'));
    expect(existsSync(file)).toBe(false);
  });

  it('lock - breaks a lock left by a dead process', async () => {
    const file = join(tempDir(), 'repo.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(file, JSON.stringify({ pid: Number(dead.stdout), host: hostname(), at: 'x' }));
    const release = await acquireLock(file, { timeoutMs: 2000 });
    expect(JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(file, 'utf8'))).pid).toBe(process.pid);
    await release();
    await release();
    expect(existsSync(file)).toBe(false);
  });

  it('lock - times out on a live holder with a message naming the pid and the fix', async () => {
    const file = join(tempDir(), 'repo.lock');
    const release = await acquireLock(file);
    await expect(acquireLock(file, { timeoutMs: 100, pollMs: 10 })).rejects.toThrow(
      new RegExp(`held by pid ${process.pid}.*delete the file if that process is gone`),
    );
    await release();
  });
});
