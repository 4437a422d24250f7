import { describe, it, expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, callThrough } from './helpers/context.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { createRegistry } from '../../src/tools/registry.js';
import type { ToolContext, ToolResult } from '../../src/tools/define-tool.js';

const repo = useRepo({
  once: true,
  git: true,
  files: {
    '.gitignore': 'build/\n*.log\n',
    'src/math.ts':
      'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function Sub(a: number, b: number) {\n  return a - b;\n}\n',
    'src/util/strings.ts': '// TODO: trim\nexport const up = (s: string) => s.toUpperCase();\nexport const add = "add";\n',
    'src/view.tsx': 'const x = <div>add me</div>;\n',
    'docs/notes.md': 'one\ntwo\nthree add\nfour\nfive\nsix\nseven\neight add\n',
    'crlf.txt': 'alpha\r\nadd here\r\nomega\r\n',
    '.github/workflow.yml': 'run: add\n',
    'build/gen.ts': 'export function add() {}\n',
    'debug.log': 'add\n',
    'bin.dat': Buffer.from('add\0\x01\x02'),
  },
  add: ['src/math.ts', 'docs/notes.md'],
  commit: 'partly tracked',
});
const backends = ['rg', 'git', 'js'] as const;
const calls = Object.fromEntries(backends.map((b) => [b, callThrough(createRegistry([createGrepTool({ backend: b })]))]));

async function grep(backend: (typeof backends)[number], raw: Record<string, unknown>, ctx: ToolContext = repo.ctx): Promise<ToolResult> {
  const through = calls[backend];
  if (!through) throw new Error(backend);
  return through(ctx, 'Grep', raw);
}

const queries: Array<Record<string, unknown>> = [
  { pattern: 'add' },
  { pattern: 'add', output_mode: 'content' },
  { pattern: 'add', output_mode: 'count' },
  { pattern: 'ADD', '-i': true, output_mode: 'content' },
  { pattern: 'function\\s+\\w+\\(', output_mode: 'content' },
  { pattern: 'add', output_mode: 'content', '-C': 2 },
  { pattern: 'add', output_mode: 'content', '-n': false },
  { pattern: 'add', glob: '*.ts' },
  { pattern: 'add', glob: '*.{ts,tsx}', output_mode: 'count' },
  { pattern: 'add', glob: 'src/**' },
  { pattern: 'add', path: 'src' },
  { pattern: 'add', path: 'src/util', output_mode: 'content' },
  { pattern: 'return', path: 'src/math.ts', output_mode: 'content' },
  { pattern: 'add', head_limit: 2 },
  { pattern: 'add', output_mode: 'content', head_limit: 3 },
  { pattern: 'nothing-matches-this' },
  { pattern: '^export const \\w+ = ', output_mode: 'content' },
];

describe('Grep', () => {
  it('grep - rg, git grep and the JS fallback give the same results for every option', async () => {
    for (const q of queries) {
      const [rg, gitR, js] = await Promise.all(backends.map((b) => grep(b, q)));
      expect({ q, out: gitR?.forModel }).toEqual({ q, out: rg?.forModel });
      expect({ q, out: js?.forModel }).toEqual({ q, out: rg?.forModel });
    }
  });

  it('grep - files_with_matches is the default; .gitignore, .git and binary files are skipped; hidden files searched', async () => {
    const r = await grep('rg', { pattern: 'add' });
    expect(r.forModel).toBe('Found 6 files\n.github/workflow.yml\ncrlf.txt\ndocs/notes.md\nsrc/math.ts\nsrc/util/strings.ts\nsrc/view.tsx');
  });

  it('grep - content mode shows path:line:text, context lines and group separators', async () => {
    const r = await grep('js', { pattern: 'add', path: 'docs', output_mode: 'content', '-C': 1 });
    expect(r.forModel).toBe(
      'docs/notes.md-2-two\ndocs/notes.md:3:three add\ndocs/notes.md-4-four\n--\ndocs/notes.md-7-seven\ndocs/notes.md:8:eight add',
    );
  });

  it('grep - count mode and head_limit', async () => {
    expect((await grep('rg', { pattern: 'add', output_mode: 'count', path: 'src' })).forModel).toBe(
      'Found 3 matching lines in 3 files\nsrc/math.ts:1\nsrc/util/strings.ts:1\nsrc/view.tsx:1',
    );
    expect((await grep('rg', { pattern: 'add', head_limit: '1' })).forModel).toBe(
      'Found 6 files\n.github/workflow.yml\n(results truncated at head_limit 1: 5 more lines)',
    );
  });

  it('grep - an invalid regex is an error in every backend, never "no matches"', async () => {
    for (const b of backends) {
      const r = await grep(b, { pattern: 'add(' });
      expect(r.isError).toBe(true);
      expect(r.errorKind).toBe('invalid_regex');
      expect(r.forModel.startsWith('Invalid pattern "add(": ')).toBe(true);
      expect(
        r.forModel.endsWith(
          'Grep patterns are regular expressions: escape special characters (for example \\( or \\.) to match them literally, then call Grep again.',
        ),
      ).toBe(true);
    }
  });

  it('grep - says "No matches found." when nothing matches', async () => {
    expect(await grep('rg', { pattern: 'zzz' })).toMatchObject({ isError: false, forModel: 'No matches found.' });
  });

  it('grep - refuses a missing path and .git', async () => {
    expect((await grep('rg', { pattern: 'a', path: 'nope' })).forModel).toBe(
      'Path does not exist: nope. Use Glob to find the right file or folder, or leave path out to search the whole repository.',
    );
    expect((await grep('rg', { pattern: 'a', path: '.git' })).errorKind).toBe('denied');
  });

  it('grep - can search a saved tool-output file of the run', async () => {
    const dir = join(repo.runDir, 'tool-output');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'call_9.txt'), 'x\nneedle here\n');
    for (const b of backends) {
      const r = await grep(b, { pattern: 'needle', path: join(dir, 'call_9.txt'), output_mode: 'content' });
      expect(r.forModel).toBe(`${join(dir, 'call_9.txt')}:2:needle here`);
    }
  });
});
