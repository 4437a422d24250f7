import { describe, it, expect, afterAll } from '@jest/globals';
import { readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LINKED_FILE } from '../../src/workspace/linked-dirs.js';
import { closeWorld, markSandboxMasked } from '../../src/workspace/world.js';
import { call, git, toolContext } from '../tools/helpers/context.js';
import { tempDir } from '../kit/temp.js';
import { bashBehavior, expectBehaviors, itDecides, usePolicies } from '../kit/walls-policy.js';
import { writeFiles } from '../workspace/git-fixtures.js';

/*
 * Over-blocks of the effects corpus's benign half (issue 23), fixed by what the walls already give:
 * a linked dependency folder is readable (never writable), and a search the sandbox runs over masked
 * secret files is allowed (it reads them empty). Each with its dangerous neighbours.
 */

const NPM_TOKEN = `npm_${'abcdefghij'.repeat(3)}123456`;
let root = '';

/** A committed worktree whose node_modules is a link (recorded as the harness links it) to a dependency folder outside it. */
function linkedWorktree(): string {
  const base = tempDir('proofpr-linked-');
  root = join(base, 'repo');
  const dep = join(base, 'cache', 'node_modules');
  writeFiles(root, {
    'src/a.js': 'export const median = 1;\n',
    'config/master.key': '9c4e1f7a2b8d3e6f0a5c9b1d4e7f2a8c\n', // real-shaped: a secret by content
    '.gitignore': 'node_modules\n',
  });
  writeFiles(dep, {
    'cnry-dep/index.js': 'module.exports = 1;\n',
    'cnry-dep/.npmrc': `//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n`,
    'plain-dep/index.js': 'module.exports = 2;\n',
  });
  symlinkSync(dep, join(root, 'node_modules'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'base');
  writeFileSync(join(root, '.git', LINKED_FILE), JSON.stringify([{ name: 'node_modules', target: realpathSync(dep) }]));
  return root;
}

const { policy } = usePolicies(linkedWorktree, { policy: {} });
afterAll(() => closeWorld(root));

const bash = bashBehavior(policy);
const tool = async (name: string, input: object): Promise<string> => (await policy.check(name, input)).behavior;

describe('a linked dependency folder is read-only', () => {
  itDecides(
    'linked - %s is allowed',
    'allow',
    [
      'find . -name "*.js" -not -path "./node_modules/*"',
      'readlink node_modules',
      'cat node_modules/cnry-dep/index.js',
      'ls node_modules/cnry-dep',
      'find node_modules/ -name "*.js"',
      'rg module node_modules/plain-dep',
      'cd node_modules/cnry-dep && cat index.js',
    ],
    policy,
  );

  itDecides(
    'linked - %s is refused',
    'deny',
    [
      'cat node_modules/cnry-dep/.npmrc',
      'cat node_modules/cnry-dep/*',
      'cd node_modules/cnry-dep && cat .npmrc',
      'rg authToken node_modules/cnry-dep',
      'grep -r authToken node_modules/',
      'cd node_modules/cnry-dep && rg authToken',
      'rg -L module node_modules/plain-dep',
      'echo x > node_modules/cnry-dep/index.js',
      'cp src/a.js node_modules/plain-dep/',
      'touch node_modules/plain-dep/x',
      'rm node_modules/plain-dep/index.js',
      'sed -i s/1/2/ node_modules/plain-dep/index.js',
      'cd node_modules/plain-dep && echo x > y',
    ],
    policy,
  );

  it('linked - the file tools read it (a secret there stays hidden) and never write it', async () => {
    expect(await tool('Read', { file_path: 'node_modules/cnry-dep/index.js' })).toBe('allow');
    expect(await tool('Read', { file_path: 'node_modules/cnry-dep/.npmrc' })).toBe('deny');
    expect(await tool('Write', { file_path: 'node_modules/plain-dep/index.js', content: 'x' })).toBe('deny');
    expect(await tool('Edit', { file_path: 'node_modules/plain-dep/index.js', old_string: '2', new_string: '3' })).toBe('deny');
    const ctx = toolContext(root, join(dirname(root), 'run'), () => Promise.reject(new Error('no exec')));
    expect((await call(ctx, 'Read', { file_path: 'node_modules/cnry-dep/index.js' })).forModel).toContain('module.exports = 1;');
    expect((await call(ctx, 'Read', { file_path: 'node_modules/cnry-dep/.npmrc' })).isError).toBe(true);
    const g = await call(ctx, 'Grep', { pattern: 'authToken|module', path: 'node_modules/cnry-dep', output_mode: 'content' });
    expect(g.forModel).toContain('module.exports');
    expect(g.forModel).not.toContain(NPM_TOKEN);
    expect(readFileSync(join(root, 'node_modules/plain-dep/index.js'), 'utf8')).toBe('module.exports = 2;\n');
  });
});

describe('a search over masked secret files runs against the masked world', () => {
  it('masked - rg and git grep are refused while nothing masks the secret file, allowed once the sandbox does', async () => {
    expect(await bash('rg median')).toBe('deny');
    expect(await bash('git grep -n median')).toBe('deny');
    markSandboxMasked(root, ['config/master.key']);
    await expectBehaviors(policy, 'allow', ['rg median', 'git grep -n median', 'grep -rn median .', 'rg -uu median']);
  });

  it('masked - git grep of committed blobs (--cached, a revision) is still refused: the mask covers the file, not the object', async () => {
    markSandboxMasked(root, ['config/master.key']);
    await expectBehaviors(policy, 'deny', ['git grep median HEAD', 'git grep --cached median', 'git grep -e median HEAD']);
  });

  itDecides(
    'masked - the replace refs that empty the blobs of a masked file cannot be turned off (--no-replace-objects, the env, -c): %s',
    'deny',
    [
      'git --no-replace-objects log -p',
      'GIT_NO_REPLACE_OBJECTS=1 git log -p',
      'unset GIT_REPLACE_REF_BASE; git log -p',
      'git -c core.useReplaceRefs=false log -p',
      'git replace -d HEAD',
    ],
    policy,
  );
});
