import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import { LINKED_FILE } from '../../src/workspace/linked-dirs.js';
import { closeWorld, markSandboxMasked } from '../../src/workspace/world.js';
import { FileState } from '../../src/tools/file-state.js';
import type { ToolContext } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/log.js';
import { call } from '../tools/helpers/context.js';
import { tempDir } from '../kit/temp.js';

/*
 * Over-blocks of the effects corpus's benign half (issue 23), fixed by what the walls already give:
 * a linked dependency folder is readable (never writable), and a search the sandbox runs over masked
 * secret files is allowed (it reads them empty). Each with its dangerous neighbours.
 */

const NPM_TOKEN = `npm_${'abcdefghij'.repeat(3)}123456`;
let base: string;
let root: string;
let policy: Awaited<ReturnType<typeof createPolicy>>;

beforeAll(async () => {
  base = tempDir('proofpr-linked-');
  root = join(base, 'repo');
  const dep = join(base, 'cache', 'node_modules');
  const files: Record<string, string> = {
    [join(root, 'src/a.js')]: 'export const median = 1;\n',
    [join(root, 'config/master.key')]: 'CANARY_TRACKED_KEY_0123456789\n',
    [join(root, '.gitignore')]: 'node_modules\n',
    [join(dep, 'cnry-dep/index.js')]: 'module.exports = 1;\n',
    [join(dep, 'cnry-dep/.npmrc')]: `//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n`,
    [join(dep, 'plain-dep/index.js')]: 'module.exports = 2;\n',
  };
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, c);
  }
  symlinkSync(dep, join(root, 'node_modules'));
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...a], { cwd: root });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeFileSync(join(root, '.git', LINKED_FILE), JSON.stringify([{ name: 'node_modules', target: realpathSync(dep) }]));
  policy = await createPolicy({ root, mode: 'default', allow: [], deny: [] });
});

afterAll(() => {
  closeWorld(root);
  rmSync(base, { recursive: true, force: true });
});

const bash = async (command: string): Promise<string> => (await policy.check('Bash', { command })).behavior;
const tool = async (name: string, input: object): Promise<string> => (await policy.check(name, input)).behavior;

describe('a linked dependency folder is read-only', () => {
  it.each([
    'find . -name "*.js" -not -path "./node_modules/*"',
    'readlink node_modules',
    'cat node_modules/cnry-dep/index.js',
    'ls node_modules/cnry-dep',
    'find node_modules/ -name "*.js"',
    'rg module node_modules/plain-dep',
    'cd node_modules/cnry-dep && cat index.js',
  ])('linked - %s is allowed', async (command) => {
    expect(await bash(command)).toBe('allow');
  });

  it.each([
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
  ])('linked - %s is refused', async (command) => {
    expect(await bash(command)).toBe('deny');
  });

  it('linked - the file tools read it (a secret there stays hidden) and never write it', async () => {
    expect(await tool('Read', { file_path: 'node_modules/cnry-dep/index.js' })).toBe('allow');
    expect(await tool('Read', { file_path: 'node_modules/cnry-dep/.npmrc' })).toBe('deny');
    expect(await tool('Write', { file_path: 'node_modules/plain-dep/index.js', content: 'x' })).toBe('deny');
    expect(await tool('Edit', { file_path: 'node_modules/plain-dep/index.js', old_string: '2', new_string: '3' })).toBe('deny');
    const ctx: ToolContext = {
      root,
      runDir: join(base, 'run'),
      callId: 'c1',
      fileState: new FileState(),
      exec: () => Promise.reject(new Error('no exec')),
      signal: new AbortController().signal,
      logger: silentLogger,
    };
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
    for (const c of ['rg median', 'git grep -n median', 'grep -rn median .', 'rg -uu median']) expect(await bash(c)).toBe('allow');
  });

  it('masked - git grep of committed blobs (--cached, a revision) is still refused: the mask covers the file, not the object', async () => {
    markSandboxMasked(root, ['config/master.key']);
    for (const c of ['git grep median HEAD', 'git grep --cached median', 'git grep -e median HEAD']) expect(await bash(c)).toBe('deny');
  });

  it('masked - the replace refs that empty the blobs of a masked file cannot be turned off (--no-replace-objects, the env, -c)', async () => {
    for (const c of [
      'git --no-replace-objects log -p',
      'GIT_NO_REPLACE_OBJECTS=1 git log -p',
      'unset GIT_REPLACE_REF_BASE; git log -p',
      'git -c core.useReplaceRefs=false log -p',
      'git replace -d HEAD',
    ])
      expect(await bash(c)).toBe('deny');
  });
});
