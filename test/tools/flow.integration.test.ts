import { describe, it, expect } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, call } from './helpers/context.js';

/** A scripted model's tool calls, played through parse → execute as the loop does. */
describe('scripted tool sessions', () => {
  it('flow - reads, edits and re-reads a file', async () => {
    const repo = makeRepo({ git: true });
    repo.write('src/greet.ts', 'export function greet(name: string) {\n  return "hello " + name;\n}\n');
    const script = [
      { name: 'Grep', input: { pattern: 'hello', output_mode: 'content' } },
      { name: 'Read', input: { file_path: 'src/greet.ts' } },
      { name: 'Edit', input: { file_path: 'src/greet.ts', old_string: '"hello " + name', new_string: '`Hello, ${name}!`' } },
      { name: 'Read', input: { file_path: 'src/greet.ts' } },
    ];
    const results = [];
    for (const step of script) results.push(await call(repo.ctx, step.name, step.input));
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false]);
    expect(results[0]?.forModel).toBe('src/greet.ts:2:  return "hello " + name;');
    expect(results[3]?.forModel).toBe('     1\texport function greet(name: string) {\n     2\t  return `Hello, ${name}!`;\n     3\t}');
  });

  it('flow - an edit after an external change gets the stale refusal, and works after a re-read', async () => {
    const repo = makeRepo();
    const abs = repo.write('notes.txt', 'one\n');
    expect((await call(repo.ctx, 'Read', { file_path: 'notes.txt' })).isError).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(abs, 'one\ntwo (added by a formatter)\n');
    const stale = await call(repo.ctx, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: 'ONE' });
    expect(stale).toMatchObject({ isError: true, errorKind: 'stale' });
    await call(repo.ctx, 'Read', { file_path: 'notes.txt' });
    const ok = await call(repo.ctx, 'Edit', { file_path: 'notes.txt', old_string: 'one', new_string: 'ONE' });
    expect(ok.isError).toBe(false);
    expect(readFileSync(join(repo.root, 'notes.txt'), 'utf8')).toBe('ONE\ntwo (added by a formatter)\n');
  });
});
