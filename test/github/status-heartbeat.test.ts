/**
 * The heartbeat in the App's status comment: while a run is not finished, the comment names the step in
 * progress and how long it has lasted, and is rewritten for it when nothing else changed for a while (a
 * long baseline or test run never looks hung); a finished run has no heartbeat and no more rewrites.
 */
import { describe, expect, it } from '@jest/globals';
import { recordingReporter, runStart } from './status-helpers.js';

const started = runStart({ sandbox: 'bwrap', test: { command: 'sleep 30 && npm test', source: 'configured' as const, why: 'config' } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('status comment - heartbeat during long steps', () => {
  it('status heartbeat - a long baseline step rewrites the comment with the step and its time; a finished run stops', async () => {
    let t = 0;
    const { r, bodies } = recordingReporter('queued', { intervalMs: 0, heartbeatMs: 60, now: () => t });
    await r.set({ phase: 'preparing' });
    expect(bodies.at(-1)).toContain('⏳ Now: `preparing` · 0s');
    r.onEvent(started);
    await r.flush();
    expect(bodies.at(-1)).toContain('⏳ Now: `baseline tests (sleep 30 && npm test)` · 0s');
    const before = bodies.length;
    // 65 s of the baseline with nothing else happening: the beat rewrites the comment with the time.
    t = 65_000;
    await sleep(120);
    await r.flush();
    expect(bodies.length).toBeGreaterThan(before);
    expect(bodies.at(-1)).toContain('⏳ Now: `baseline tests (sleep 30 && npm test)` · 1m05s');
    await r.set({ phase: 'done', verdict: 'verified' }, true);
    expect(bodies.at(-1)).not.toContain('⏳ Now');
    const done = bodies.length;
    t = 200_000;
    await sleep(120);
    expect(bodies).toHaveLength(done);
  });

  it('status heartbeat - a command from the run is a code span with secrets redacted, never markdown or a mention', async () => {
    const { r, bodies } = recordingReporter('working', { intervalMs: 0, heartbeatMs: 60_000 });
    r.onEvent({
      type: 'tool_call',
      ts: '2026-01-01T00:00:01.000Z',
      turn: 1,
      id: 't1',
      name: 'Bash',
      input: { command: 'echo `@octocat` ghp_abcdefghijklmnopqrstuvwxyz0123456789\nrm x' },
    } as never);
    r.onEvent({ type: 'todo', ts: '2026-01-01T00:00:01.000Z', todos: [] } as never);
    await r.flush();
    const line = bodies.at(-1)!.split('\n').at(-1)!;
    expect(line).toMatch(/^⏳ Now: `running Bash: echo +@octocat +ghp_\[REDACTED\] rm x` · \d+s$/);
    expect(line).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
