import { describe, it, expect } from '@jest/globals';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, call } from './helpers/context.js';

const repo = useRepo();

describe('Write', () => {
  it('write - creates a new file and its parent folders', async () => {
    const r = await call(repo.ctx, 'Write', { file_path: 'src/deep/new.ts', content: 'export {};\n' });
    expect(r).toMatchObject({
      isError: false,
      forModel: 'Created src/deep/new.ts (1 lines).',
      meta: { path: 'src/deep/new.ts', created: true, lines: 1 },
    });
    expect(readFileSync(join(repo.root, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
    const edit = await call(repo.ctx, 'Edit', { file_path: 'src/deep/new.ts', old_string: '{}', new_string: '{ x }' });
    expect(edit.isError).toBe(false);
  });

  it('write - refuses to overwrite a file that was not read', async () => {
    repo.write('a.txt', 'old\n');
    const r = await call(repo.ctx, 'Write', { file_path: 'a.txt', content: 'new\n' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'not_read',
      forModel: 'You must read a.txt before you overwrite it. Call Read with file_path "a.txt" first, then retry.',
    });
  });

  it('write - overwrites after a full read', async () => {
    const abs = repo.write('a.txt', 'old\n');
    await call(repo.ctx, 'Read', { file_path: 'a.txt' });
    const r = await call(repo.ctx, 'Write', { file_path: 'a.txt', content: 'new\n' });
    expect(r.forModel).toBe('Overwrote a.txt (1 lines).');
    expect(readFileSync(abs, 'utf8')).toBe('new\n');
  });

  it('write - refuses to overwrite a file changed since the read', async () => {
    const abs = repo.write('a.txt', 'old\n');
    await call(repo.ctx, 'Read', { file_path: 'a.txt' });
    const later = new Date(statSync(abs).mtimeMs + 3000);
    utimesSync(abs, later, later);
    const r = await call(repo.ctx, 'Write', { file_path: 'a.txt', content: 'new\n' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'stale',
      forModel:
        'a.txt changed on disk since you last read it (a command, a hook or another process modified it). Read it again, then retry the overwrite against its current content.',
    });
  });

  it('write - keeps CRLF endings of the file it replaces', async () => {
    const abs = repo.write('w.txt', 'a\r\nb\r\n');
    await call(repo.ctx, 'Read', { file_path: 'w.txt' });
    await call(repo.ctx, 'Write', { file_path: 'w.txt', content: 'x\ny\n' });
    expect(readFileSync(abs, 'utf8')).toBe('x\r\ny\r\n');
  });

  it('write - refuses a folder path', async () => {
    repo.write('src/a.ts', '');
    const r = await call(repo.ctx, 'Write', { file_path: 'src', content: '' });
    expect(r).toEqual({ isError: true, errorKind: 'is_directory', forModel: 'src is a directory; Write needs a file path.' });
  });

  it('write - refuses a path outside the root', async () => {
    const r = await call(repo.ctx, 'Write', { file_path: '/tmp/escape.txt', content: 'x' });
    expect(r.errorKind).toBe('denied');
    expect(r.forModel).toMatch(/^Access to "\/tmp\/escape.txt" is refused: it resolves to .*, outside the repository at /);
  });
});
