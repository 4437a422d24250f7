import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, call, type TestRepo } from './helpers/context.js';

let repo: TestRepo;
beforeEach(() => {
  repo = makeRepo();
});
afterEach(() => repo.cleanup());

describe('Read', () => {
  it('read - numbers lines like cat -n and records a full read', async () => {
    const abs = repo.write('src/a.ts', 'one\ntwo\n');
    const r = await call(repo.ctx, 'Read', { file_path: 'src/a.ts' });
    expect(r.isError).toBe(false);
    expect(r.forModel).toBe('     1\tone\n     2\ttwo');
    expect(r.meta).toEqual({ path: 'src/a.ts', lines: 2, from: 1, to: 2, full: true });
    expect(repo.ctx.fileState.get(abs)?.full).toBe(true);
  });

  it('read - accepts an absolute path inside the root', async () => {
    const abs = repo.write('a.txt', 'x\n');
    const r = await call(repo.ctx, 'Read', { file_path: abs });
    expect(r.forModel).toBe('     1\tx');
  });

  it('read - offset and limit give a slice, recorded as partial, with a note', async () => {
    const abs = repo.write('a.txt', 'l1\nl2\nl3\nl4\nl5\n');
    const r = await call(repo.ctx, 'Read', { file_path: 'a.txt', offset: '2', limit: 2 });
    expect(r.forModel).toBe(
      '     2\tl2\n     3\tl3\n\n(Showing lines 2-3 of 5. To continue, call Read with offset 4. This is a partial read: Edit and Write need the whole file read in one call (offset 1, limit 5).)',
    );
    expect(repo.ctx.fileState.get(abs)?.full).toBe(false);
  });

  it('read - stops at 2000 lines by default and says how to continue', async () => {
    repo.write('big.txt', Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join('\n'));
    const r = await call(repo.ctx, 'Read', { file_path: 'big.txt' });
    const lines = r.forModel.split('\n');
    expect(lines[1999]).toBe('  2000\tl2000');
    expect(
      r.forModel.endsWith(
        '(Showing lines 1-2000 of 2500. To continue, call Read with offset 2001. This is a partial read: Edit and Write need the whole file read in one call (offset 1, limit 2500).)',
      ),
    ).toBe(true);
  });

  it('read - cuts lines longer than 2000 characters', async () => {
    repo.write('long.txt', 'x'.repeat(2500));
    const r = await call(repo.ctx, 'Read', { file_path: 'long.txt' });
    expect(r.forModel).toBe(`     1\t${'x'.repeat(2000)}… [line cut: 2500 characters]`);
  });

  it('read - says when a file is empty', async () => {
    repo.write('e.txt', '');
    const r = await call(repo.ctx, 'Read', { file_path: 'e.txt' });
    expect(r).toMatchObject({ isError: false, forModel: 'e.txt is empty (0 lines).' });
  });

  it('read - drops the CR of CRLF lines', async () => {
    repo.write('w.txt', 'a\r\nb\r\n');
    const r = await call(repo.ctx, 'Read', { file_path: 'w.txt' });
    expect(r.forModel).toBe('     1\ta\n     2\tb');
  });

  it('read - refuses a binary file', async () => {
    repo.write('img.bin', Buffer.from([0x89, 0x50, 0, 1, 2]));
    const r = await call(repo.ctx, 'Read', { file_path: 'img.bin' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'binary',
      forModel:
        'img.bin is a binary file (it contains NUL bytes); Read only shows text. Use Bash (for example `file` or `xxd | head`) if you need to inspect it.',
    });
  });

  it('read - refuses a file over 256 KB without offset/limit, and reads a slice of it', async () => {
    repo.write('huge.txt', 'y'.repeat(100) + '\n'.repeat(1) + 'z'.repeat(300 * 1024));
    const r = await call(repo.ctx, 'Read', { file_path: 'huge.txt' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'too_large',
      forModel:
        'huge.txt is 301 KB, over the 256 KB limit for reading a whole file. Read a part with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.',
    });
    const part = await call(repo.ctx, 'Read', { file_path: 'huge.txt', offset: 1, limit: 1 });
    expect(part.isError).toBe(false);
    expect(part.forModel.startsWith(`     1\t${'y'.repeat(100)}\n`)).toBe(true);
  });

  it('read - answers a missing file with similar names from the same folder', async () => {
    repo.write('src/config.ts', '');
    repo.write('src/confg.json', '');
    repo.write('src/other.ts', '');
    const r = await call(repo.ctx, 'Read', { file_path: 'src/confg.ts' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'not_found',
      forModel: 'File does not exist: src/confg.ts. Did you mean: src/confg.json, src/config.ts? Use Glob to find files by name.',
    });
  });

  it('read - says when the folder is missing too', async () => {
    const r = await call(repo.ctx, 'Read', { file_path: 'nope/x.ts' });
    expect(r.forModel).toBe('File does not exist: nope/x.ts. The folder nope does not exist either. Use Glob to find files by name.');
  });

  it('read - refuses a folder', async () => {
    mkdirSync(join(repo.root, 'src'));
    const r = await call(repo.ctx, 'Read', { file_path: 'src' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'is_directory',
      forModel: 'src is a directory, not a file. Use Glob (for example pattern "src/*") to list its files.',
    });
  });

  it('read - refuses an offset past the end', async () => {
    repo.write('a.txt', 'a\nb\n');
    const r = await call(repo.ctx, 'Read', { file_path: 'a.txt', offset: 9 });
    expect(r).toEqual({
      isError: true,
      errorKind: 'invalid_input',
      forModel: 'offset 9 is past the end of a.txt, which has 2 lines. Use an offset between 1 and 2.',
    });
  });

  it('read - refuses a path outside the root', async () => {
    const r = await call(repo.ctx, 'Read', { file_path: '../run/x' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'denied',
      forModel: `Access to "../run/x" is refused: it resolves to ${join(repo.runDir, 'x')}, outside the repository at ${repo.root}. Use a path relative to the repository root, or an absolute path inside it.`,
    });
  });

  it('read - may read the run folder tool-output files', async () => {
    mkdirSync(join(repo.runDir, 'tool-output'));
    const { writeFileSync } = await import('node:fs');
    const out = join(repo.runDir, 'tool-output', 'call_0.txt');
    writeFileSync(out, 'saved\n');
    const r = await call(repo.ctx, 'Read', { file_path: out });
    expect(r.forModel).toBe('     1\tsaved');
  });
});
