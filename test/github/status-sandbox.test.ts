import { describe, expect, it } from '@jest/globals';
import { createStatusReporter } from '../../src/github/status-reporter.js';
import { renderStatusComment } from '../../src/github/status-comment.js';

const start = (sandbox: string, sandboxReason?: string) => ({
  type: 'run_start' as const,
  ts: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  task: { kind: 'issue', issue: 3, title: 't' },
  model: 'm',
  root: '/wt',
  sandbox,
  ...(sandboxReason ? { sandboxReason } : {}),
});

describe('status comment: the sandbox state at the start', () => {
  it('status - run_start writes the comment at once, with no sandbox and its reason shown as a warning', async () => {
    const bodies: string[] = [];
    const r = createStatusReporter(
      { updateComment: async (_id: number, body: string) => void bodies.push(body) },
      1,
      { runId: 'r1', phase: 'working', requester: 'octo', mode: 'fix' },
      { intervalMs: 60_000 },
    );
    r.onEvent(
      start('none', 'no sandbox: bubblewrap cannot create namespaces here (bwrap said: bwrap: setting up uid map: Permission denied); …'),
    );
    await r.flush();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain(
      '⚠️ Sandbox: none: no sandbox: bubblewrap cannot create namespaces here (bwrap said: bwrap: setting up uid map: Permission denied)',
    );
  });

  it('status - a working sandbox is one plain line', () => {
    expect(renderStatusComment({ runId: 'r1', phase: 'working', requester: 'octo', mode: 'fix', sandbox: 'bwrap' })).toContain(
      '\nSandbox: bwrap',
    );
  });
});
