import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENV = {
  PATH: process.env.PATH,
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.test',
};

export function g(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, env: { ...ENV, ...env }, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
}

/**
 * A large repository with real history, built once and cached: this project's node_modules committed
 * in steps (half the packages, then all), then a second copy under copy/ (a tree duplicate, no extra
 * disk reads), then a small change. Returns the bare repository path.
 */
export function ensureFixture(cacheDir: string, nodeModules: string): { bare: string; files: number } {
  const bare = join(cacheDir, 'fixture.git');
  const done = join(cacheDir, 'fixture.done');
  if (!existsSync(done)) {
    rmSync(bare, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    g(cacheDir, ['init', '-q', '--bare', '-b', 'main', bare]);
    g(bare, ['config', 'uploadpack.allowFilter', 'true']);
    g(bare, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
    const index = join(cacheDir, 'fixture.index');
    rmSync(index, { force: true });
    const env = { GIT_DIR: bare, GIT_WORK_TREE: nodeModules, GIT_INDEX_FILE: index };
    const commit = (msg: string, parent?: string): string => {
      const tree = g(nodeModules, ['write-tree'], env);
      const sha = g(nodeModules, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', msg], env);
      g(nodeModules, ['update-ref', 'refs/heads/main', sha], env);
      return sha;
    };
    g(nodeModules, ['add', '-A', '--', ':(glob)[a-m]*/**', ':(glob)@[a-m]*/**'], env);
    let head = commit('first half of the packages');
    g(nodeModules, ['add', '-A', '--', '.'], env);
    head = commit('the other half', head);
    g(nodeModules, ['read-tree', '--prefix=copy/', `${head}^{tree}`], env);
    head = commit('a second copy under copy/', head);
    writeFileSync(join(cacheDir, 'NOTE.md'), 'bench fixture\n');
    const note = g(cacheDir, ['hash-object', '-w', join(cacheDir, 'NOTE.md')], { GIT_DIR: bare });
    g(nodeModules, ['update-index', '--add', '--cacheinfo', `100644,${note},NOTE.md`], env);
    commit('a note', head);
    g(bare, ['gc', '--quiet']);
    rmSync(index, { force: true });
    writeFileSync(done, new Date().toISOString());
  }
  const files = Number(g(bare, ['ls-tree', '-r', '--name-only', 'main']).split('\n').length);
  return { bare, files };
}
