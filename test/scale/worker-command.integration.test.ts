/** `proofpr worker`: configuration errors exit 2 naming the variable; a configured worker drains on SIGTERM and exits 0. */
import { describe, it, expect, beforeAll, jest } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { workerCommand } from '../../src/hosts/cli/worker-command.js';
import { requireRedis, waitFor, REDIS_URL } from './helpers.js';
import { tempDir } from '../kit/temp.js';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

function captureStderr(): { text: () => string; restore: () => void } {
  let out = '';
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { text: () => out, restore: () => spy.mockRestore() };
}

beforeAll(async () => {
  await requireRedis();
});

describe('worker command - proofpr worker', () => {
  it('worker command - exits 2 naming REDIS_URL when it is not set', async () => {
    const err = captureStderr();
    try {
      expect(await workerCommand({ env: { APP_ID: '1', PRIVATE_KEY: pem } })).toBe(2);
    } finally {
      err.restore();
    }
    expect(err.text()).toMatch(/REDIS_URL is not set/);
  });

  it('worker command - exits 2 naming APP_ID when the App id is missing', async () => {
    const err = captureStderr();
    try {
      expect(await workerCommand({ env: { REDIS_URL, PRIVATE_KEY: pem } })).toBe(2);
    } finally {
      err.restore();
    }
    expect(err.text()).toMatch(/APP_ID is missing/);
  });

  it('worker command - serves /healthz on PROOFPR_METRICS_PORT, drains on SIGTERM and exits 0', async () => {
    const err = captureStderr();
    try {
      const home = tempDir('proofpr-worker-');
      const running = workerCommand({ env: { REDIS_URL, APP_ID: '1', PRIVATE_KEY: pem, PROOFPR_HOME: home, PROOFPR_METRICS_PORT: '0' } });
      const port = await waitFor('metrics port', () => /metrics on port (\d+)/.exec(err.text())?.[1], 10_000);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain('proofpr_queue_jobs{state="waiting"}');
      process.emit('SIGTERM');
      expect(await running).toBe(0);
    } finally {
      err.restore();
    }
    expect(err.text()).toMatch(/draining/);
  });
});
