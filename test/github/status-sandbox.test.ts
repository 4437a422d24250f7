import { describe, expect, it } from '@jest/globals';
import { recordingReporter, runStart } from './status-helpers.js';
import { renderStatusComment } from '../../src/github/status-comment.js';

const start = (sandbox: string, sandboxReason?: string) => runStart({ sandbox, ...(sandboxReason ? { sandboxReason } : {}) });

describe('status comment: the sandbox state at the start', () => {
  it('status - run_start writes the comment at once, with no sandbox and its reason shown as a warning', async () => {
    const { r, bodies } = recordingReporter('working', { intervalMs: 60_000 });
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
