import { describe, expect, it } from '@jest/globals';
import { text, toolUse } from '../../src/model/scripted.js';
import { demoConfig, runScripted } from './helpers.js';

describe('PreCompact hooks', () => {
  it('pre-compact - the hook runs right before the compaction, its outcome recorded, and the run goes on', async () => {
    const config = demoConfig('hooks:\n  PreCompact:\n    - command: "echo saving notes >&2; exit 1"\n');
    const { res, events } = await runScripted(
      [
        { content: [toolUse('Read', { file_path: 'src/stats.js' })] },
        { error: 'prompt_too_long', message: 'prompt is too long' },
        { content: [text('Summary: read src/stats.js; the median sorts as strings.')] },
        {
          content: [
            toolUse('Edit', {
              file_path: 'src/stats.js',
              old_string: 'const sorted = [...values].sort();',
              new_string: 'const sorted = [...values].sort((a, b) => a - b);',
            }),
          ],
        },
        { content: [toolUse('Bash', { command: 'node --test' })] },
        { content: [text('done')] },
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
