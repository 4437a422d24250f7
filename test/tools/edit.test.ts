import { describe, it, expect } from '@jest/globals';
import { chmodSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { useRepo, call, editAfterRead } from './helpers/context.js';

const repo = useRepo();

const SRC = 'function add(a, b) {\n  return a - b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';

interface Refusal {
  title: string;
  /** The file the test writes first (default m.js holding SRC); none: the file does not exist. */
  file?: [path: string, content: string] | 'none';
  /** The Read before the edit: its extra input (default a whole read), or none at all. */
  read?: Record<string, unknown> | 'none';
  edit: { file_path?: string; old_string: string; new_string: string };
  errorKind: string;
  forModel: string;
}

const refusals: Refusal[] = [
  {
    title: 'refuses a file that was never read',
    read: 'none',
    edit: { old_string: 'add', new_string: 'plus' },
    errorKind: 'not_read',
    forModel: 'You must read m.js before you edit it. Call Read with file_path "m.js" first, then retry.',
  },
  {
    title: 'refuses a file that was only partly read',
    read: { limit: 2 },
    edit: { old_string: 'add', new_string: 'plus' },
    errorKind: 'not_read',
    forModel:
      'You have read only part of m.js. Read the whole file (Read with just file_path, or offset 1 and a limit covering every line) before you edit it.',
  },
  {
    title: 'refuses old_string equal to new_string',
    edit: { old_string: 'add', new_string: 'add' },
    errorKind: 'no_op',
    forModel:
      'old_string and new_string are identical, so this edit would change nothing. Put the text to replace in old_string and its replacement in new_string.',
  },
  {
    title: 'refuses an empty old_string',
    read: 'none',
    edit: { old_string: '', new_string: 'x' },
    errorKind: 'invalid_input',
    forModel:
      'old_string is empty. Give the exact text to replace (copied from the file without the line-number prefix); to replace a whole file, use Write.',
  },
  {
    title: 'refuses when old_string matches twice, with the count and line numbers',
    edit: { old_string: 'return a - b;', new_string: 'return a + b;' },
    errorKind: 'ambiguous',
    forModel:
      'old_string matches 2 places in m.js (lines 2, 6). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.',
  },
  {
    title: 'with no match shows the closest region with line numbers',
    edit: { old_string: 'function sub(a,b) {\n  return a-b;', new_string: 'x' },
    errorKind: 'no_match',
    forModel:
      'old_string was not found in m.js. The closest text is at lines 5-6:\n     5\tfunction sub(a, b) {\n     6\t  return a - b;\nCopy the exact text, including indentation and whitespace, from the file and retry.',
  },
  {
    title: 'refuses a missing file and points to Write',
    file: 'none',
    read: 'none',
    edit: { file_path: 'new.ts', old_string: 'a', new_string: 'b' },
    errorKind: 'not_found',
    forModel: 'File does not exist: new.ts. Edit changes existing files; to create a new file use Write.',
  },
  {
    title: 'refuses a path inside .git',
    file: ['.git/config', '[core]\n'],
    read: 'none',
    edit: { file_path: '.git/config', old_string: 'core', new_string: 'x' },
    errorKind: 'denied',
    forModel:
      'Access to ".git/config" is refused: files inside .git are off limits to every tool. Inspect the repository with git commands through Bash instead (git status, git log, git diff, git show).',
  },
];

/** What changes m.js on disk between the Read and the Edit, behind the tools' back. */
const externalChanges: Array<[title: string, change: (abs: string) => void]> = [
  [
    'edit - refuses when the file changed on disk since the read (mtime)',
    (abs) => {
      const later = new Date(statSync(abs).mtimeMs + 5000);
      utimesSync(abs, later, later);
    },
  ],
  [
    'edit - refuses after an external write that changed the size',
    (abs) => {
      const st = statSync(abs);
      writeFileSync(abs, SRC + '// more\n');
      utimesSync(abs, st.atime, st.mtime);
    },
  ],
];

describe('Edit', () => {
  it('edit - replaces a unique match, shows the region and reports added/removed', async () => {
    const { abs, r } = await editAfterRead(repo, 'm.js', 'a\nb\nc\nd\ne\nf\ng\nh\n', { old_string: 'd\n', new_string: 'D1\nD2\n' });
    expect(r.isError).toBe(false);
    expect(r.forModel).toBe(
      'Edited m.js. The changed region now reads:\n     1\ta\n     2\tb\n     3\tc\n     4\tD1\n     5\tD2\n     6\te\n     7\tf\n     8\tg',
    );
    expect(r.meta).toEqual({ path: 'm.js', added: 2, removed: 1, replacements: 1 });
    expect(readFileSync(abs, 'utf8')).toBe('a\nb\nc\nD1\nD2\ne\nf\ng\nh\n');
  });

  it.each(refusals)('edit - $title', async ({ file = ['m.js', SRC], read = {}, edit, errorKind, forModel }) => {
    if (file !== 'none') repo.write(...file);
    const file_path = edit.file_path ?? 'm.js';
    if (read !== 'none') await call(repo.ctx, 'Read', { file_path, ...read });
    expect(await call(repo.ctx, 'Edit', { file_path, ...edit })).toEqual({ isError: true, errorKind, forModel });
  });

  it.each(externalChanges)('%s', async (_title, change) => {
    const abs = repo.write('m.js', SRC);
    await call(repo.ctx, 'Read', { file_path: 'm.js' });
    change(abs);
    expect(await call(repo.ctx, 'Edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' })).toEqual({
      isError: true,
      errorKind: 'stale',
      forModel:
        'm.js changed on disk since you last read it (a command, a hook or another process modified it). Read it again, then retry the edit against its current content.',
    });
  });

  it('edit - replace_all changes every occurrence', async () => {
    const { abs, r } = await editAfterRead(repo, 'm.js', SRC, { old_string: 'a - b', new_string: 'a + b', replace_all: 'true' });
    expect(r.isError).toBe(false);
    expect(r.forModel.startsWith('Edited m.js (2 occurrences replaced).')).toBe(true);
    expect(r.meta).toEqual({ path: 'm.js', added: 2, removed: 2, replacements: 2 });
    expect(readFileSync(abs, 'utf8')).toBe(SRC.replaceAll('a - b', 'a + b'));
  });

  it('edit - warns when old_string carries a Read line-number prefix', async () => {
    const { r } = await editAfterRead(repo, 'm.js', SRC, { old_string: '     2\t  return a - b;', new_string: 'x' });
    expect(r.forModel.endsWith('old_string seems to start with a Read line-number prefix: leave the number and tab out.')).toBe(true);
  });

  it.each([
    ['when the model sends LF', 'one\r\ntwo\r\nthree\r\n', 'one\ntwo', 'one\nTWO\nextra', 'one\r\nTWO\r\nextra\r\nthree\r\n'],
    ['when a single-line edit adds a line', 'one\r\ntwo\r\n', 'two', 'two\nthree', 'one\r\ntwo\r\nthree\r\n'],
  ])('edit - keeps CRLF line endings %s', async (_when, before, old_string, new_string, after) => {
    const { abs, r } = await editAfterRead(repo, 'w.txt', before, { old_string, new_string });
    expect(r.isError).toBe(false);
    expect(readFileSync(abs, 'utf8')).toBe(after);
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
});
