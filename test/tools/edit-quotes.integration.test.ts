import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { useRepo, call, editAfterRead } from './helpers/context.js';
import { applyQuoteStyle, normalizeQuotes } from '../../src/tools/lib/quote-style.js';
import { CONTENT_MAX_BYTES } from '../../src/tools/lib/content-cap.js';
import { countCommands, MAX_COMPOUND_COMMANDS } from '../../src/tools/bash-compound-cap.js';

const repo = useRepo();

describe('Edit quote style', () => {
  it('edit - a straight-quote old_string matches curly quotes in the file, and new_string takes the curly style', async () => {
    const { abs, r } = await editAfterRead(repo, 'msg.js', 'const msg = "It\u2019s \u201Cfine\u201D";\n', {
      old_string: `It's "fine"`,
      new_string: `It's "great", isn't it`,
    });
    expect(r.isError).toBe(false);
    expect(r.forModel).toContain("the file's quote style was kept");
    expect(r.meta).toMatchObject({ quotesNormalized: true, replacements: 1 });
    expect(readFileSync(abs, 'utf8')).toBe('const msg = "It\u2019s \u201Cgreat\u201D, isn\u2019t it";\n');
  });

  it('edit - a curly-quote old_string matches straight quotes in the file, and new_string is written straight', async () => {
    const { abs, r } = await editAfterRead(repo, 'a.py', 'print(\'hello\', "world")\n', {
      old_string: 'print(\u2018hello\u2019, \u201Cworld\u201D)',
      new_string: 'print(\u2018hi\u2019, \u201Cthere\u201D)',
    });
    expect(r.isError).toBe(false);
    expect(readFileSync(abs, 'utf8')).toBe('print(\'hi\', "there")\n');
  });

  it('edit - an exact match is applied as given, with no quote rewriting', async () => {
    const { abs, r } = await editAfterRead(repo, 'b.md', 'say \u201Chi\u201D and "bye"\n', { old_string: '"bye"', new_string: '"ciao"' });
    expect(r.meta).not.toHaveProperty('quotesNormalized');
    expect(readFileSync(abs, 'utf8')).toBe('say \u201Chi\u201D and "ciao"\n');
  });

  it('edit - replace_all after quote normalisation replaces every match; without it several matches are ambiguous', async () => {
    const abs = repo.write('c.txt', 'don\u2019t\nx\ndon\u2019t\n');
    await call(repo.ctx, 'Read', { file_path: 'c.txt' });
    const amb = await call(repo.ctx, 'Edit', { file_path: 'c.txt', old_string: "don't", new_string: 'do not' });
    expect(amb).toMatchObject({ isError: true, errorKind: 'ambiguous' });
    const r = await call(repo.ctx, 'Edit', { file_path: 'c.txt', old_string: "don't", new_string: "won't", replace_all: true });
    expect(r.isError).toBe(false);
    expect(readFileSync(abs, 'utf8')).toBe('won\u2019t\nx\nwon\u2019t\n');
  });

  it('quote style - normalising keeps every index; opening and closing forms follow the text around them', () => {
    const s = '\u201Ca\u201D \u2018b\u2019';
    expect(normalizeQuotes(s)).toBe(`"a" 'b'`);
    expect(normalizeQuotes(s)).toHaveLength(s.length);
    expect(applyQuoteStyle(`("x") it's`, '\u201C\u2019')).toBe('(\u201Cx\u201D) it\u2019s');
  });
});

describe('size caps', () => {
  const big = 'x'.repeat(CONTENT_MAX_BYTES + 1);

  it('write - content over the cap is refused, naming the limit, and nothing is written', async () => {
    const r = await call(repo.ctx, 'Write', { file_path: 'big.txt', content: big });
    expect(r).toMatchObject({ isError: true, errorKind: 'too_large' });
    expect(r.forModel).toContain("over Write's limit of 1 MiB per call");
    expect(() => readFileSync(`${repo.root}/big.txt`)).toThrow();
  });

  it('edit - new_string over the cap is refused, naming the limit', async () => {
    const { r } = await editAfterRead(repo, 's.txt', 'small\n', { old_string: 'small', new_string: big });
    expect(r).toMatchObject({ isError: true, errorKind: 'too_large' });
    expect(r.forModel).toContain("new_string is 1 MiB, over Edit's limit of 1 MiB per call");
  });

  it('edit - a replace_all that would grow the file past the file cap is refused and leaves it unchanged', async () => {
    const { abs, r } = await editAfterRead(repo, 'many.txt', 'a\n'.repeat(100), {
      old_string: 'a',
      new_string: 'y'.repeat(1024 * 1024),
      replace_all: true,
    });
    expect(r).toMatchObject({ isError: true, errorKind: 'too_large' });
    expect(r.forModel).toContain('over the limit of 64 MiB per file');
    expect(readFileSync(abs, 'utf8')).toBe('a\n'.repeat(100));
  });
});

describe('Bash compound-command cap', () => {
  it('bash cap - counts list, pipeline and background operators outside quotes, comments and redirections', () => {
    expect(countCommands('echo hi')).toBe(1);
    expect(countCommands('a && b || c; d | e & f')).toBe(6);
    expect(countCommands(`echo "a;b&&c" 'x|y' \\; # z; w`)).toBe(1);
    expect(countCommands('npm test 2>&1 | tail -5')).toBe(2);
    expect(countCommands('a;\nb\n')).toBe(2);
  });

  it('bash - a command chaining more commands than the cap is refused before it runs', async () => {
    const cmd = Array.from({ length: MAX_COMPOUND_COMMANDS + 1 }, (_, i) => `touch f${i}`).join(' && ');
    const r = await call(repo.ctx, 'Bash', { command: cmd });
    expect(r).toMatchObject({ isError: true, errorKind: 'denied' });
    expect(r.forModel).toBe(
      `Refused: this command chains 51 commands, over the limit of 50 per Bash call. Nothing was run. Split it into several Bash calls, or put the steps in a script file and run that.`,
    );
    expect(() => readFileSync(`${repo.root}/f0`)).toThrow();
    const ok = await call(repo.ctx, 'Bash', { command: Array.from({ length: MAX_COMPOUND_COMMANDS }, () => 'true').join('; ') });
    expect(ok.isError).toBe(false);
  });
});
