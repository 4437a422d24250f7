import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetOutput } from '../../src/tools/output-budget.js';
import { makeRepo } from './helpers/context.js';

describe('budgetOutput', () => {
  it('output-budget - leaves small outputs alone', () => {
    expect(budgetOutput('short', { runDir: '/nonexistent', callId: 'c' })).toEqual({ text: 'short' });
  });

  it('output-budget - saves a big output whole and gives the model head, tail and the path', () => {
    const repo = makeRepo();
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const r = budgetOutput(text, { runDir: repo.runDir, callId: 'toolu_01/x' });
    const path = join(repo.runDir, 'tool-output', 'toolu_01_x.txt');
    expect(r.outputPath).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(Buffer.byteLength(r.text)).toBeLessThan(30_000);
    expect(r.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(r.text).toContain('line 4999\n\n[Output too long for one result. The full output (48889 bytes, 5000 lines) is saved at ');
    expect(r.text.endsWith(`${path}: use Read with offset/limit or Grep on that path to see the rest.]`)).toBe(true);
    expect(r.text).toMatch(/\[\.\.\. \d+ bytes omitted \.\.\.\]/);
    repo.cleanup();
  });
});
