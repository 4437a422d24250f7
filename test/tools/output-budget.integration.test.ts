import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { budgetOutput } from '../../src/tools/output-budget.js';
import { call, makeRepo } from './helpers/context.js';

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
  });
});

describe('full outputs on disk (Bash through the real exec)', () => {
  const withExec = async (opts: { maxOutputFileBytes?: number } = {}) => {
    const repo = makeRepo();
    const { createExec } = await import('../../src/workspace/exec.js');
    const h = await createExec({
      root: repo.root,
      runTmp: join(repo.runDir, '..', 'tmp'),
      sandbox: 'off',
      maxOutputBytes: 64 * 1024,
      ...opts,
    });
    return { repo, ctx: { ...repo.ctx, exec: h.exec }, done: () => h.dispose() };
  };

  it('output-budget - an output over the in-memory cap streams to tool-output/ whole; the preview names the file', async () => {
    const { repo, ctx, done } = await withExec();
    // 200 000 lines (~2.3 MB): the exec keeps 64 KiB head + tail in memory, the file gets every byte.
    const r = await call(ctx, 'Bash', { command: 'seq 1 200000 | sed "s/^/row /"' });
    const path = join(repo.runDir, 'tool-output', 'call_1.txt');
    expect(r.outputPath).toBe(path);
    const full = readFileSync(path, 'utf8');
    expect(full.split('\n').filter(Boolean)).toHaveLength(200000);
    expect(full.startsWith('row 1\nrow 2\n')).toBe(true);
    expect(full).toContain('\nrow 100000\n');
    expect(Buffer.byteLength(r.forModel)).toBeLessThan(30_000);
    expect(r.forModel).toContain(`The full output (${statSync(path).size} bytes) is saved at ${path}`);
    await done();
  });

  it('output-budget - a small output leaves no file behind', async () => {
    const { repo, ctx, done } = await withExec();
    const r = await call(ctx, 'Bash', { command: 'echo small' });
    expect(r.outputPath).toBeUndefined();
    expect(existsSync(join(repo.runDir, 'tool-output', 'call_1.txt'))).toBe(false);
    await done();
  });

  it('output-budget - past the file cap the file ends with a note saying how much was not saved', async () => {
    const { repo, ctx, done } = await withExec({ maxOutputFileBytes: 100_000 });
    const r = await call(ctx, 'Bash', { command: 'seq 1 100000' });
    const full = readFileSync(join(repo.runDir, 'tool-output', 'call_1.txt'), 'utf8');
    expect(full).toMatch(/\n\[proofpr: output file cap of 100000 bytes reached; \d+ more bytes were not saved\]\n$/);
    expect(r.outputPath).toBeDefined();
    await done();
  });
});
