/** The commit message of a run's work: true for a local run (no pull request) as for the App's. */
import { describe, expect, it } from '@jest/globals';
import { commitMessage } from '../../src/run/commit-message.js';

describe('commit message', () => {
  it('names the run folder as the evidence, and the pull request body only when there is one; lines of 72 at most', () => {
    const m = commitMessage({ kind: 'prompt', title: 'Make the median sort numbers', body: '' });
    expect(m.split('\n')[0]).toBe('Make the median sort numbers');
    expect(m).toContain("run folder's evidence.json");
    expect(m).toContain('when the run opened one');
    expect(m).not.toContain('evidence is in the pull request body');
    for (const line of m.split('\n')) expect(line.length).toBeLessThanOrEqual(72);
  });
});
