import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { tempDir } from '../kit/temp.js';
import { endedWithin } from '../kit/process.js';

let dir: string;
let bundle: string;

/**
 * A small program on the real watchdog: it starts a process group (a `sleep`), starts the watchdog with
 * the given limit, then blocks its main thread in the way given by argv[2]: a synchronous open of a
 * named pipe no one writes (the attack the watchdog exists for), Atomics.wait, or not at all ("idle":
 * a responsive main thread that outlives limit + grace).
 */
const DRIVER = `
import { execFileSync, spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWatchdog } from ${JSON.stringify(resolve('src/run/watchdog.ts'))};
import { registerGroup } from ${JSON.stringify(resolve('src/workspace/process-groups.ts'))};
const [how, runDir] = process.argv.slice(2);
const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
registerGroup(child.pid);
writeFileSync(join(runDir, 'sleep.pid'), String(child.pid));
startWatchdog({ limitMs: 1000, label: 'timeout_min 1/60', staleMs: 500, graceMs: how === 'idle' ? 1500 : 600000, runDir,
  evidence: { version: 1, runId: 'r1', startedAt: 'x', endedAt: 'x', verdict: 'aborted', reason: '', task: { kind: 'prompt', title: 't' },
    repo: { path: '/r', baseSha: '', branch: 'b' }, gates: [], testRuns: [], filesChanged: [], toolCalls: {}, denied: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 } } });
if (how === 'fifo') {
  const p = join(runDir, 'pipe');
  execFileSync('mkfifo', [p]);
  openSync(p, 'r');
} else if (how === 'atomics') {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
} else {
  setInterval(() => undefined, 100);
}
`;

beforeAll(() => {
  dir = tempDir('proofpr-wd-');
  const src = join(dir, 'driver.ts');
  writeFileSync(src, DRIVER);
  bundle = join(dir, 'driver.mjs');
  buildSync({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function play(how: string): Promise<{ code: number | null; stderr: string; ms: number; runDir: string }> {
  const runDir = tempDir(`run-${how}-`, dir);
  const t = Date.now();
  const child = spawn(process.execPath, [bundle, how, runDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const safety = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  clearTimeout(safety);
  return { code, stderr, ms: Date.now() - t, runDir };
}

describe('run watchdog', () => {
  it.each(['fifo', 'atomics'])(
    'watchdog - ends a run whose main thread is blocked (%s): exit 4, groups killed, stderr, evidence',
    async (how) => {
      const r = await play(how);
      expect(r.code).toBe(4);
      expect(r.ms).toBeLessThan(6000);
      expect(r.stderr).toContain('[proofpr watchdog] the run passed its time limit (timeout_min 1/60) and the harness was stuck');
      const sleepPid = Number(readFileSync(join(r.runDir, 'sleep.pid'), 'utf8'));
      expect(await endedWithin(sleepPid)).toBe(true);
      const ev = JSON.parse(readFileSync(join(r.runDir, 'evidence.json'), 'utf8')) as { verdict: string; reason: string; runId: string };
      expect(ev).toMatchObject({ verdict: 'aborted', runId: 'r1' });
      expect(ev.reason).toContain('the watchdog killed 1 process group(s)');
    },
    20_000,
  );

  it('watchdog - a responsive main thread past limit + grace is ended too', async () => {
    const r = await play('idle');
    expect(r.code).toBe(4);
    expect(r.ms).toBeGreaterThanOrEqual(2400);
    expect(r.stderr).toContain('did not end within 2 s after it');
  }, 20_000);

  it('watchdog - a stopped watchdog neither fires nor keeps the process alive', async () => {
    const src = join(dir, 'stop.ts');
    writeFileSync(
      src,
      `import { startWatchdog } from ${JSON.stringify(resolve('src/run/watchdog.ts'))};\n` +
        `const w = startWatchdog({ limitMs: 300, label: 'x', staleMs: 100 }); w.stop();\n` +
        `setTimeout(() => process.stdout.write('done'), 800);\n`,
    );
    const out = join(dir, 'stop.mjs');
    buildSync({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
    const child = spawn(process.execPath, [out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let so = '';
    child.stdout.on('data', (b: Buffer) => (so += b.toString('utf8')));
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(code).toBe(0);
    expect(so).toBe('done');
    expect(existsSync(join(dir, 'evidence.json'))).toBe(false);
  }, 20_000);
});
