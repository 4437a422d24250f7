import { describe, it, expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, call, type TestRepo } from './helpers/context.js';

const repo = useRepo();

interface Answer {
  title: string;
  /** Files written first (root-relative path → content). */
  files?: Record<string, string | Buffer>;
  input: Record<string, unknown>;
  forModel: string;
}

interface Refusal extends Omit<Answer, 'forModel'> {
  errorKind: string;
  /** What the model is told (it may name the repository's folders). */
  forModel: string | ((r: TestRepo) => string);
}

const answers: Answer[] = [
  {
    title: 'cuts lines longer than 2000 characters',
    files: { 'long.txt': 'x'.repeat(2500) },
    input: { file_path: 'long.txt' },
    forModel: `     1\t${'x'.repeat(2000)}… [line cut: 2500 characters]`,
  },
  { title: 'says when a file is empty', files: { 'e.txt': '' }, input: { file_path: 'e.txt' }, forModel: 'e.txt is empty (0 lines).' },
  {
    title: 'drops the CR of CRLF lines',
    files: { 'w.txt': 'a\r\nb\r\n' },
    input: { file_path: 'w.txt' },
    forModel: '     1\ta\n     2\tb',
  },
];

const refusals: Refusal[] = [
  {
    title: 'refuses a binary file',
    files: { 'img.bin': Buffer.from([0x89, 0x50, 0, 1, 2]) },
    input: { file_path: 'img.bin' },
    errorKind: 'binary',
    forModel:
      'img.bin is a binary file (it contains NUL bytes); Read only shows text. Use Bash (for example `file` or `xxd | head`) if you need to inspect it.',
  },
  {
    title: 'answers a missing file with similar names from the same folder',
    files: { 'src/config.ts': '', 'src/confg.json': '', 'src/other.ts': '' },
    input: { file_path: 'src/confg.ts' },
    errorKind: 'not_found',
    forModel: 'File does not exist: src/confg.ts. Did you mean: src/confg.json, src/config.ts? Use Glob to find files by name.',
  },
  {
    title: 'says when the folder is missing too',
    input: { file_path: 'nope/x.ts' },
    errorKind: 'not_found',
    forModel: 'File does not exist: nope/x.ts. The folder nope does not exist either. Use Glob to find files by name.',
  },
  {
    title: 'refuses a folder',
    files: { 'src/a.ts': '' },
    input: { file_path: 'src' },
    errorKind: 'is_directory',
    forModel: 'src is a directory, not a file. Use Glob (for example pattern "src/*") to list its files.',
  },
  {
    title: 'refuses an offset past the end',
    files: { 'a.txt': 'a\nb\n' },
    input: { file_path: 'a.txt', offset: 9 },
    errorKind: 'invalid_input',
    forModel: 'offset 9 is past the end of a.txt, which has 2 lines. Use an offset between 1 and 2.',
  },
  {
    title: 'refuses a path outside the root',
    input: { file_path: '../run/x' },
    errorKind: 'denied',
    forModel: (r) =>
      `Access to "../run/x" is refused: it resolves to ${join(r.runDir, 'x')}, outside the repository at ${r.root}. Use a path relative to the repository root, or an absolute path inside it.`,
  },
];

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

  it.each(answers)('read - $title', async ({ files = {}, input, forModel }) => {
    for (const [rel, content] of Object.entries(files)) repo.write(rel, content);
    expect(await call(repo.ctx, 'Read', input)).toMatchObject({ isError: false, forModel });
  });

  it.each(refusals)('read - $title', async ({ files = {}, input, errorKind, forModel }) => {
    for (const [rel, content] of Object.entries(files)) repo.write(rel, content);
    const told = typeof forModel === 'function' ? forModel(repo) : forModel;
    expect(await call(repo.ctx, 'Read', input)).toEqual({ isError: true, errorKind, forModel: told });
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

  it('read - may read the run folder tool-output files', async () => {
    mkdirSync(join(repo.runDir, 'tool-output'));
    const out = join(repo.runDir, 'tool-output', 'call_0.txt');
    writeFileSync(out, 'saved\n');
    const r = await call(repo.ctx, 'Read', { file_path: out });
    expect(r.forModel).toBe('     1\tsaved');
  });
});
