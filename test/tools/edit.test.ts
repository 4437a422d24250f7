import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { chmodSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { makeRepo, call, type TestRepo } from './helpers/context.js';

let repo: TestRepo;
beforeEach(() => {
  repo = makeRepo();
});
afterEach(() => repo.cleanup());

const SRC = 'function add(a, b) {\n  return a - b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';

describe('Edit', () => {
  it('edit - replaces a unique match, shows the region and reports added/removed', async () => {
    const abs = repo.write('m.js', 'a\nb\nc\nd\ne\nf\ng\nh\n');
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'd\n', new_string: 'D1\nD2\n' });
    expect(r.isError).toBe(false);
    expect(r.forModel).toBe(
      'Edited m.js. The changed region now reads:\n     1\ta\n     2\tb\n     3\tc\n     4\tD1\n     5\tD2\n     6\te\n     7\tf\n     8\tg',
    );
    expect(r.meta).toEqual({ path: 'm.js', added: 2, removed: 1, replacements: 1 });
    expect(readFileSync(abs, 'utf8')).toBe('a\nb\nc\nD1\nD2\ne\nf\ng\nh\n');
  });

  it('edit - refuses a file that was never read', async () => {
    repo.write('m.js', SRC);
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'not_read',
      forModel: 'You must read m.js before you edit it. Call Read with file_path "m.js" first, then retry.',
    });
  });

  it('edit - refuses a file that was only partly read', async () => {
    repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js', limit: 2 });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'not_read',
      forModel:
        'You have read only part of m.js. Read the whole file (Read with just file_path, or offset 1 and a limit covering every line) before you edit it.',
    });
  });

  it('edit - refuses when the file changed on disk since the read (mtime)', async () => {
    const abs = repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const later = new Date(statSync(abs).mtimeMs + 5000);
    utimesSync(abs, later, later);
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'stale',
      forModel:
        'm.js changed on disk since you last read it (a command, a hook or another process modified it). Read it again, then retry the edit against its current content.',
    });
  });

  it('edit - refuses old_string equal to new_string', async () => {
    repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'add' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'no_op',
      forModel:
        'old_string and new_string are identical, so this edit would change nothing. Put the text to replace in old_string and its replacement in new_string.',
    });
  });

  it('edit - refuses an empty old_string', async () => {
    repo.write('m.js', SRC);
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: '', new_string: 'x' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'invalid_input',
      forModel:
        'old_string is empty. Give the exact text to replace (copied from the file without the line-number prefix); to replace a whole file, use Write.',
    });
  });

  it('edit - refuses when old_string matches twice, with the count and line numbers', async () => {
    repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'return a - b;', new_string: 'return a + b;' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'ambiguous',
      forModel:
        'old_string matches 2 places in m.js (lines 2, 6). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.',
    });
  });

  it('edit - replace_all changes every occurrence', async () => {
    const abs = repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'a - b', new_string: 'a + b', replace_all: 'true' });
    expect(r.isError).toBe(false);
    expect(r.forModel.startsWith('Edited m.js (2 occurrences replaced).')).toBe(true);
    expect(r.meta).toEqual({ path: 'm.js', added: 2, removed: 2, replacements: 2 });
    expect(readFileSync(abs, 'utf8')).toBe(SRC.replaceAll('a - b', 'a + b'));
  });

  it('edit - with no match shows the closest region with line numbers', async () => {
    repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'function sub(a,b) {\n  return a-b;', new_string: 'x' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'no_match',
      forModel:
        'old_string was not found in m.js. The closest text is at lines 5-6:\n     5\tfunction sub(a, b) {\n     6\t  return a - b;\nCopy the exact text, including indentation and whitespace, from the file and retry.',
    });
  });

  it('edit - warns when old_string carries a Read line-number prefix', async () => {
    repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: '     2\t  return a - b;', new_string: 'x' });
    expect(r.forModel.endsWith('old_string seems to start with a Read line-number prefix: leave the number and tab out.')).toBe(true);
  });

  it('edit - keeps CRLF line endings when the model sends LF', async () => {
    const abs = repo.write('w.txt', 'one\r\ntwo\r\nthree\r\n');
    await call(repo.ctx, 'Read', { file_path: 'w.txt' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'one\nTWO\nextra' });
    expect(r.isError).toBe(false);
    expect(readFileSync(abs, 'utf8')).toBe('one\r\nTWO\r\nextra\r\nthree\r\n');
  });

  it('edit - keeps CRLF when a single-line edit adds a line', async () => {
    const abs = repo.write('w.txt', 'one\r\ntwo\r\n');
    await call(repo.ctx, 'Read', { file_path: 'w.txt' });
    await call(repo.ctx, 'Edit', { file_path: 'w.txt', old_string: 'two', new_string: 'two\nthree' });
    expect(readFileSync(abs, 'utf8')).toBe('one\r\ntwo\r\nthree\r\n');
  });

  it('edit - writes atomically: keeps the mode, leaves no temp file, and refreshes the file state', async () => {
    const abs = repo.write('run.sh', '#!/bin/sh\necho hi\n');
    chmodSync(abs, 0o755);
    await call(repo.ctx, 'Read', { file_path: 'run.sh' });
    await call(repo.ctx, 'Edit', { file_path: 'run.sh', old_string: 'hi', new_string: 'hello' });
    expect(statSync(abs).mode & 0o777).toBe(0o755);
    expect(readdirSync(repo.root)).toEqual(['run.sh']);
    const again = await call(repo.ctx, 'Edit', { file_path: 'run.sh', old_string: 'hello', new_string: 'bye' });
    expect(again.isError).toBe(false);
  });

  it('edit - refuses a missing file and points to Write', async () => {
    const r = await call(repo.ctx, 'Edit', { file_path: 'new.ts', old_string: 'a', new_string: 'b' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'not_found',
      forModel: 'File does not exist: new.ts. Edit changes existing files; to create a new file use Write.',
    });
  });

  it('edit - refuses a path inside .git', async () => {
    repo.write('.git/config', '[core]\n');
    const r = await call(repo.ctx, 'Edit', { file_path: '.git/config', old_string: 'core', new_string: 'x' });
    expect(r).toEqual({
      isError: true,
      errorKind: 'denied',
      forModel:
        'Access to ".git/config" is refused: files inside .git are off limits to every tool. Inspect the repository with git commands through Bash instead (git status, git log, git diff, git show).',
    });
  });

  it('edit - refuses after an external write that changed the size', async () => {
    const abs = repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    const st = statSync(abs);
    writeFileSync(abs, SRC + '// more\n');
    utimesSync(abs, st.atime, st.mtime);
    const r = await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' });
    expect(r.errorKind).toBe('stale');
  });
});
