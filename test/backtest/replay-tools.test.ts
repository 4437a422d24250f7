import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWhole, replaySteps, replayTurnBudget } from '../../src/backtest/replay.js';
import { makeRepo, call, type TestRepo } from '../tools/helpers/context.js';

let repo: TestRepo;
beforeEach(() => {
  repo = makeRepo();
});
afterEach(() => repo.cleanup());

/** Plays the replay's file steps (not the closing test run) through the real tools; every call must succeed. */
async function play(steps: ReturnType<typeof replaySteps>): Promise<void> {
  for (const s of steps.slice(0, -1)) {
    const r = await call(repo.ctx, s.name, s.input);
    expect({ step: s.name, error: r.isError ? r.forModel : undefined }).toEqual({ step: s.name, error: undefined });
  }
}

describe('backtest replay through the real tools', () => {
  it('replay tools - a file of more lines than Read shows by default is read whole, then edited hunk by hunk', async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 10\n', 'line ten\n').replace('line 2900\n', 'line 2900 changed\n');
    repo.write('big.py', before);
    const steps = replaySteps([{ path: 'big.py', before, after }], 'make test');
    expect(steps[0]).toEqual({ name: 'Read', input: { file_path: 'big.py', offset: 1, limit: 3001 } });
    expect(steps.filter((s) => s.name === 'Edit')).toHaveLength(2);
    await play(steps);
    expect(readFileSync(join(repo.root, 'big.py'), 'utf8')).toBe(after);
  });

  it('replay tools - a file over the whole-file byte limit is read in one slice, then edited', async () => {
    const before = Array.from({ length: 1500 }, (_, i) => `${i}:${'x'.repeat(200)}`).join('\n') + '\n';
    const after = before.replace('\n7:', '\nseven:');
    repo.write('wide.txt', before);
    expect(readWhole('wide.txt', before)).toEqual({ file_path: 'wide.txt', offset: 1, limit: 1501 });
    await play(replaySteps([{ path: 'wide.txt', before, after }], 'make test'));
    expect(readFileSync(join(repo.root, 'wide.txt'), 'utf8')).toBe(after);
  });

  it('replay tools - a short file is read with just its path', () => {
    expect(readWhole('a.js', 'x\ny\n')).toEqual({ file_path: 'a.js' });
  });

  it('replay tools - the turn budget covers every step of a long change, never below the default', () => {
    const many = replaySteps(
      Array.from({ length: 120 }, (_, i) => ({ path: `f${i}.txt`, after: 'x\n' })),
      'make test',
    );
    expect(replayTurnBudget(many)).toBeGreaterThanOrEqual(many.length + 4);
    expect(replayTurnBudget(replaySteps([], 'make test'))).toBe(80);
  });
});
