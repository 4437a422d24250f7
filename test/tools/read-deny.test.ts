import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, git, type TestRepo } from './helpers/context.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { createRegistry } from '../../src/tools/registry.js';
import { globTool } from '../../src/tools/glob.js';
import { readTool } from '../../src/tools/read.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/tools/define-tool.js';
import { readDenyPredicate } from '../../src/agent/permissions/read-deny.js';

let repo: TestRepo;
let ctx: ToolContext;
const backends = ['rg', 'git', 'js'] as const;
const registry = createRegistry([
  ...backends.map((b) => ({ ...createGrepTool({ backend: b }), name: `Grep_${b}` })),
  globTool,
  readTool,
] as ToolDefinition[]);

async function call(name: string, raw: Record<string, unknown>): Promise<ToolResult> {
  const parsed = registry.parse(name, raw);
  if (!parsed.ok) return parsed.result;
  return registry.execute(name, parsed.input, ctx);
}

beforeAll(() => {
  repo = makeRepo({ git: true });
  repo.write('.env', 'SECRET=hunter2\n');
  repo.write('secrets/key.txt', 'SECRET=key\n');
  repo.write('secrets/nested/deep.txt', 'SECRET=deep\n');
  repo.write('src/app.ts', 'const SECRET = process.env.SECRET;\n');
  repo.write('src/.env', 'SECRET=nested-env-is-not-denied-by-a-rooted-rule\n');
  git(repo.root, 'add', '.');
  git(repo.root, 'commit', '-qm', 'fixture');
  ctx = { ...repo.ctx, readDeny: readDenyPredicate(repo.root, ['Read(./.env)', 'Read(secrets/**)', 'Edit(./src/**)']) };
});
afterAll(() => repo.cleanup());

describe('ToolContext.readDeny', () => {
  it('grep - every backend leaves files denied by Read rules out of every output mode', async () => {
    for (const b of backends) {
      for (const output_mode of ['files_with_matches', 'content', 'count']) {
        const r = await call(`Grep_${b}`, { pattern: 'SECRET', output_mode });
        expect({ b, output_mode, isError: r.isError }).toEqual({ b, output_mode, isError: false });
        expect(r.forModel).toContain('src/app.ts');
        expect(r.forModel).toContain('src/.env');
        expect(r.forModel).not.toMatch(/hunter2|key\.txt|deep|^\.env/m);
      }
    }
  });

  it('grep - a glob naming a denied file and a path inside a denied folder find nothing', async () => {
    for (const b of backends) {
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', glob: '.env', output_mode: 'content' })).forModel).not.toContain('hunter2');
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', path: 'secrets' })).forModel).toBe('No matches found.');
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', path: '.env', output_mode: 'content' })).forModel).toBe('No matches found.');
    }
  });

  it('glob - leaves denied files out of its list', async () => {
    expect((await call('Glob', { pattern: '**/.env' })).forModel).toBe('src/.env');
    expect((await call('Glob', { pattern: '**/*.txt' })).forModel).toBe('No files matched "**/*.txt".');
    const all = (await call('Glob', { pattern: '**/*' })).forModel.split('\n').sort();
    expect(all).toEqual(['src/.env', 'src/app.ts']);
  });

  it('read - refuses a denied file and still reads the others', async () => {
    const r = await call('Read', { file_path: '.env' });
    expect(r).toMatchObject({ isError: true, errorKind: 'denied' });
    expect(r.forModel).toBe("Reading .env is refused by the repository's permissions.deny rules; leave that file alone.");
    expect((await call('Read', { file_path: `${repo.root}/secrets/nested/deep.txt` })).errorKind).toBe('denied');
    expect((await call('Read', { file_path: 'src/.env' })).isError).toBe(false);
  });

  it('grep - no backend follows a symlinked file out of the worktree or onto a denied file', async () => {
    writeFileSync(join(repo.root, '..', 'outside.txt'), 'SECRET=outside\n');
    symlinkSync('../outside.txt', join(repo.root, 'out-link.txt'));
    symlinkSync('.env', join(repo.root, 'env-link'));
    try {
      for (const b of backends) {
        const r = await call(`Grep_${b}`, { pattern: 'SECRET', output_mode: 'content' });
        expect({ b, out: r.forModel }).not.toEqual({ b, out: expect.stringMatching(/outside|hunter2/) });
      }
    } finally {
      rmSync(join(repo.root, 'out-link.txt'));
      rmSync(join(repo.root, 'env-link'));
    }
  });

  it('tools - without readDeny nothing is filtered', async () => {
    ctx = repo.ctx;
    expect((await call('Glob', { pattern: '**/.env' })).forModel.split('\n').sort()).toEqual(['.env', 'src/.env']);
    expect((await call('Read', { file_path: '.env' })).isError).toBe(false);
  });
});
