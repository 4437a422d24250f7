import { describe, it, expect, beforeAll } from '@jest/globals';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, callThrough } from './helpers/context.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { createRegistry } from '../../src/tools/registry.js';
import { globTool } from '../../src/tools/glob.js';
import { readTool } from '../../src/tools/read.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/tools/define-tool.js';
import { readDenyPredicate } from '../../src/agent/permissions/read-deny.js';

const repo = useRepo({
  once: true,
  git: true,
  files: {
    'private.cfg': 'SECRET=hunter2\n',
    'vault/key.txt': 'SECRET=key\n',
    'vault/nested/deep.txt': 'SECRET=deep\n',
    'src/app.ts': 'const SECRET = processprivate.cfg.SECRET;\n',
    'src/private.cfg': 'SECRET=nested-env-is-not-denied-by-a-rooted-rule\n',
  },
  commit: 'fixture',
});
let ctx: ToolContext;
beforeAll(() => {
  ctx = { ...repo.ctx, readDeny: readDenyPredicate(repo.root, ['Read(./private.cfg)', 'Read(vault/**)', 'Edit(./src/**)']) };
});
const backends = ['rg', 'git', 'js'] as const;
const through = callThrough(
  createRegistry([
    ...backends.map((b) => ({ ...createGrepTool({ backend: b }), name: `Grep_${b}` })),
    globTool,
    readTool,
  ] as ToolDefinition[]),
);
const call = (name: string, raw: Record<string, unknown>): Promise<ToolResult> => through(ctx, name, raw);

describe('ToolContext.readDeny', () => {
  it('grep - every backend leaves files denied by Read rules out of every output mode', async () => {
    for (const b of backends) {
      for (const output_mode of ['files_with_matches', 'content', 'count']) {
        const r = await call(`Grep_${b}`, { pattern: 'SECRET', output_mode });
        expect({ b, output_mode, isError: r.isError }).toEqual({ b, output_mode, isError: false });
        expect(r.forModel).toContain('src/app.ts');
        expect(r.forModel).toContain('src/private.cfg');
        expect(r.forModel).not.toMatch(/hunter2|key\.txt|deep|^private\.cfg/m);
      }
    }
  });

  it('grep - a glob naming a denied file and a path inside a denied folder find nothing', async () => {
    for (const b of backends) {
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', glob: 'private.cfg', output_mode: 'content' })).forModel).not.toContain(
        'hunter2',
      );
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', path: 'vault' })).forModel).toBe('No matches found.');
      expect((await call(`Grep_${b}`, { pattern: 'SECRET', path: 'private.cfg', output_mode: 'content' })).forModel).toBe(
        'No matches found.',
      );
    }
  });

  it('glob - leaves denied files out of its list', async () => {
    expect((await call('Glob', { pattern: '**/private.cfg' })).forModel).toBe('src/private.cfg');
    expect((await call('Glob', { pattern: '**/*.txt' })).forModel).toBe('No files matched "**/*.txt".');
    const all = (await call('Glob', { pattern: '**/*' })).forModel.split('\n').sort();
    expect(all).toEqual(['src/app.ts', 'src/private.cfg']);
  });

  it('read - refuses a denied file and still reads the others', async () => {
    const r = await call('Read', { file_path: 'private.cfg' });
    expect(r).toMatchObject({ isError: true, errorKind: 'denied' });
    expect(r.forModel).toBe("Reading private.cfg is refused by the repository's permissions.deny rules; leave that file alone.");
    expect((await call('Read', { file_path: `${repo.root}/vault/nested/deep.txt` })).errorKind).toBe('denied');
    expect((await call('Read', { file_path: 'src/private.cfg' })).isError).toBe(false);
  });

  it('grep - no backend follows a symlinked file out of the worktree or onto a denied file', async () => {
    writeFileSync(join(repo.root, '..', 'outside.txt'), 'SECRET=outside\n');
    symlinkSync('../outside.txt', join(repo.root, 'out-link.txt'));
    symlinkSync('private.cfg', join(repo.root, 'env-link'));
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
    expect((await call('Glob', { pattern: '**/private.cfg' })).forModel.split('\n').sort()).toEqual(['private.cfg', 'src/private.cfg']);
    expect((await call('Read', { file_path: 'private.cfg' })).isError).toBe(false);
  });
});
