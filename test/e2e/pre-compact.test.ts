import { describe, expect, it } from '@jest/globals';
import { bash, MEDIAN_FIX, read, said } from '../kit/e2e-script.js';
import { demoConfig, runScripted } from './helpers.js';

describe('PreCompact hooks', () => {
  it('pre-compact - the hook runs right before the compaction, its outcome recorded, and the run goes on', async () => {
    const config = demoConfig('hooks:\n  PreCompact:\n    - command: "echo saving notes >&2; exit 1"\n');
    const { res, events } = await runScripted(
      [
        read('src/stats.js'),
        { error: 'prompt_too_long', message: 'prompt is too long' },
        said('Summary: read src/stats.js; the median sorts as strings.'),
        MEDIAN_FIX,
        bash('node --test'),
        said('done'),
      ],
      { config },
    );
    const hook = events.findIndex((e) => e.type === 'hook' && e.event === 'PreCompact');
    const compaction = events.findIndex((e) => e.type === 'compaction');
    expect(events[hook]).toMatchObject({ outcome: 'error', message: expect.stringContaining('saving notes') });
    expect(hook).toBeGreaterThan(-1);
    expect(hook).toBeLessThan(compaction);
    expect(res.evidence.verdict).toBe('verified');
  });
});
