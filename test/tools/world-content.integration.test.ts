import { describe, it, expect, afterAll } from '@jest/globals';
import { useRepo, call } from './helpers/context.js';
import { closeWorld, openWorld, worldMasked } from '../../src/workspace/world.js';

/*
 * Issue 23, issue 37: tracked files are hidden from the file tools by what they hold (a token, a key, a
 * credential file's password), never by their name: `.dev.vars`, `.vault-token`, `secrets/db.txt` and a
 * terraform state holding fixture values are ordinary content. Source code is not judged by content.
 */

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}xY9z8W`;
const repo = useRepo({
  once: true,
  git: true,
  files: {
    'config/deploy.yml': `github_token: ${TOKEN}\n`,
    'config/app.yml': 'name: app\npassword: test\n',
    'terraform.tfstate': '{"version": 4}\n',
    '.dev.vars': 'X=1\n',
    '.vault-token': 's.abc\n',
    'ops/.vault-token': 'hvs.CAESIJq3xT9vW2mN7pL4rK8sB1dF\n',
    'secrets/db.txt': 'postgres://u:p@h/db\n',
    'src/secrets/redact.ts': 'export const x = 1;\n',
    'src/token.test.js': `const t = '${TOKEN}';\n`,
  },
  commit: 'fixture',
});
afterAll(() => closeWorld(repo.root));

describe('secret-looking tracked files', () => {
  it('world - a data file holding a token is hidden from Read, Grep and Glob; a source file holding one is not', async () => {
    expect(await call(repo.ctx, 'Read', { file_path: 'config/deploy.yml' })).toMatchObject({ isError: true, errorKind: 'denied' });
    expect((await call(repo.ctx, 'Read', { file_path: 'config/app.yml' })).isError).toBe(false);
    const g = await call(repo.ctx, 'Grep', { pattern: 'ghp_', output_mode: 'files_with_matches' });
    expect(g.forModel).toContain('src/token.test.js');
    expect(g.forModel).not.toContain('deploy.yml');
    const all = (await call(repo.ctx, 'Glob', { pattern: '**/*' })).forModel.split('\n').sort();
    expect(all).toEqual([
      '.dev.vars',
      '.vault-token',
      'config/app.yml',
      'secrets/db.txt',
      'src/secrets/redact.ts',
      'src/token.test.js',
      'terraform.tfstate',
    ]);
  });

  it('world - the masked list names them; permissions.readable opens one', async () => {
    openWorld(repo.root, { readable: ['config/deploy.yml'] });
    expect(worldMasked(repo.root)).toEqual(['ops/.vault-token']);
    expect((await call(repo.ctx, 'Read', { file_path: 'config/deploy.yml' })).forModel).toContain(TOKEN);
  });

  it('world - permissions.masked hides a tracked path whatever it holds, for the tools and the masked list', async () => {
    openWorld(repo.root, { masked: ['config/app.yml'] });
    expect(worldMasked(repo.root)).toEqual(['config/app.yml', 'config/deploy.yml', 'ops/.vault-token']);
    expect(await call(repo.ctx, 'Read', { file_path: 'config/app.yml' })).toMatchObject({ isError: true, errorKind: 'denied' });
    expect((await call(repo.ctx, 'Glob', { pattern: 'config/*' })).forModel).toMatch(/^No files matched/);
    openWorld(repo.root);
    expect((await call(repo.ctx, 'Read', { file_path: 'config/app.yml' })).isError).toBe(false);
  });
});
