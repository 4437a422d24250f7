/**
 * Long steps are never silent: the built CLI as a child process against the local Messages server, with a
 * slow test command (sleep, then node --test). Every stderr line is timed as it arrives: no gap longer than
 * the heartbeat allows, and the beats name the step (baseline, final test run). The interval is shortened
 * with PROOFPR_HEARTBEAT_MS to keep the test short; the default (10 s, ticking every third of it) keeps a
 * line at least every 15 s.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { fixtureRepo } from '../e2e/helpers.js';
import { BIN, demoFixScript } from '../kit/host-cli.js';
import { DEFAULT_HEARTBEAT_MS, elapsed, heartbeatMs, startHeartbeat } from '../../src/hosts/shared/heartbeat.js';

const SLOW = 'sleep 5 && node --test';

/** Run the CLI; each stderr line with the time it arrived. */
function cliTimed(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; lines: Array<{ at: number; line: string }> }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    const lines: Array<{ at: number; line: string }> = [{ at: Date.now(), line: '(start)' }];
    let buf = '';
    child.stderr.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      for (const line of parts) lines.push({ at: Date.now(), line });
    });
    child.stdout.resume();
    child.on('close', (code) => done({ code, lines: [...lines, { at: Date.now(), line: '(end)' }] }));
  });
}

describe('CLI heartbeat', () => {
  let server: FakeMessagesServer;
  beforeAll(async () => {
    server = await startFakeMessagesServer(demoFixScript(SLOW));
  });
  afterAll(async () => server.close());

  it('heartbeat - the default interval keeps a line at least every 15 s; PROOFPR_HEARTBEAT_MS changes it', async () => {
    expect(DEFAULT_HEARTBEAT_MS * (4 / 3)).toBeLessThanOrEqual(15_000);
    expect(heartbeatMs({})).toBe(DEFAULT_HEARTBEAT_MS);
    expect(heartbeatMs({ PROOFPR_HEARTBEAT_MS: '1500' })).toBe(1500);
    expect(heartbeatMs({ PROOFPR_HEARTBEAT_MS: 'soon' })).toBe(DEFAULT_HEARTBEAT_MS);
    expect(elapsed(65_000)).toBe('1m05s');
    // A step prints beats only while it lasts and nothing else was printed.
    const out: string[] = [];
    const hb = startHeartbeat((l) => out.push(l), { intervalMs: 60 });
    hb.step('setup (npm ci)');
    // Two beats (about 120 ms); waited for, not timed, so a busy machine cannot make it flaky.
    for (let i = 0; i < 250 && out.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    hb.idle();
    const n = out.length;
    await new Promise((r) => setTimeout(r, 150));
    hb.stop();
    expect(n).toBeGreaterThanOrEqual(2);
    expect(out.length).toBe(n);
    expect(out[0]).toMatch(/^… still: setup \(npm ci\) · \d+s$/);
  });

  it('heartbeat - a CLI run with a slow test command prints a line at least every interval during the baseline and final runs', async () => {
    const { dir, work } = fixtureRepo();
    const cfg = join(work, 'slow.yml');
    writeFileSync(cfg, `test:\n  command: ${SLOW}\n  min_tests: 1\npermissions:\n  allow: ["Bash(node --test:*)", "Bash(sleep:*)"]\n`);
    const r = await cliTimed(
      ['run', '--repo', dir, '--prompt', 'median([10, 9, 2]) should be 9', '--config', cfg, '--out', join(work, 'run')],
      {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'sk-ant-test-key-0123456789',
        PROOFPR_HOME: join(work, 'home'),
        PROOFPR_HEARTBEAT_MS: '1500',
      },
    );
    const text = r.lines.map((l) => l.line).join('\n');
    if (r.code !== 0) console.log(text);
    expect(r.code).toBe(0);
    expect(text).toMatch(/^… still: baseline tests \(sleep 5 && node --test\) · \d+s$/m);
    expect(text).toMatch(/^… still: running Bash: sleep 5 && node --test · \d+s$/m);
    expect(text).toMatch(/^… still: final test run and gates \(sleep 5 && node --test\) · \d+s$/m);
    expect(text).toMatch(/^VERIFIED/m);
    // From the first line on (node's own start-up, loading the CLI, is before it).
    const gaps = r.lines.slice(2).map((l, i) => ({ gap: l.at - (r.lines[i + 1]?.at ?? l.at), line: l.line }));
    const worst = gaps.reduce((a, b) => (b.gap > a.gap ? b : a));
    // The requirement is a line at least every 15 s. (Synchronous work that blocks the event loop, e.g. while
    // the agent is assembled, delays a beat beyond the 1.5 s interval: it is bounded here by the requirement.)
    expect(`${worst.gap} ms before: ${worst.line}`).toMatch(/^(\d{1,4}|1[0-4]\d{3}) ms before/);
  }, 90000);
});
