import { describe, expect } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from './git-fixtures.js';
import { itInSandbox, sandboxedCheckout } from '../kit/walls-exec.js';

/**
 * A checkout in a (hidden) home with its dependencies installed in `layout`, a worktree of it with
 * node_modules linked, and a sandboxed exec there: node requires `dep` and cannot write to it.
 */
async function withLayout(layout: (src: string, outside: string) => void) {
  const { wt, h, paths } = await sandboxedCheckout({
    files: { 'README.md': '# r\n', '.gitignore': 'node_modules/\n', 'index.js': "console.log(require('dep').answer);\n" },
    branch: 'proofpr/1-l',
    prepare: ({ home, src }) => layout(src, join(home, 'elsewhere')),
    hide: ({ home, state }) => [home, state],
  });
  const run = async (command: string, fresh = false) =>
    h.exec({ command, cwd: wt.path, timeoutMs: 20_000, ...(fresh ? { home: 'fresh' as const } : {}) });
  return { wt, run, src: paths.src };
}

const DEP = { 'package.json': '{"name":"dep","version":"1.0.0","main":"index.js"}\n', 'index.js': 'exports.answer = 42;\n' };
const prefixed = (dir: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([p, t]) => [`${dir}/${p}`, t]));

describe('installed dependencies survive the sandbox, whatever their layout', () => {
  // `node_modules/` in .gitignore does not match a symlink (git sees a file): it is linked all the same.
  itInSandbox(
    'layouts - a node_modules that is itself a symlink (to a folder outside the checkout) is linked to its target and usable, read-only',
    async () => {
      const { wt, run, src } = await withLayout((src, outside) => {
        writeFiles(outside, { ...prefixed('node_modules/dep', DEP), 'node_modules/.cache/xo-linter/old.json': 'outside\n' });
        symlinkSync(join(outside, 'node_modules'), join(src, 'node_modules'), 'dir');
      });
      expect(wt.linked.map((l) => l.name)).toEqual(['node_modules']);
      expect(wt.linked[0]?.target).toBe(realpathSync(join(src, 'node_modules')));
      expect((await run('node index.js')).output).toBe('42\n');
      expect((await run('touch node_modules/dep/x || exit 7')).exitCode).toBe(7);
      // Tool caches inside node_modules (vite's config bundle, loaders' caches) are the run's own and writable.
      expect(
        (await run('echo cached > node_modules/.vite-temp/c && cat node_modules/.vite-temp/c && mkdir -p node_modules/.cache/x')).output,
      ).toBe('cached\n');
      expect(existsSync(join(src, 'node_modules', '.vite-temp', 'c'))).toBe(false);
      // A cache folder a tool made at install time is there (xo writes into `.cache/xo-linter/` without making it); its files are not.
      expect((await run('echo {} > node_modules/.cache/xo-linter/tsconfig.json && ls node_modules/.cache/xo-linter')).output).toBe(
        'tsconfig.json\n',
      );
      expect(readFileSync(join(src, 'node_modules', '.cache', 'xo-linter', 'old.json'), 'utf8')).toBe('outside\n');
      // find-cache-dir's users (ava, xo, nyc) see a read-only node_modules: CACHE_DIR names its writable .cache.
      expect((await run('echo "$CACHE_DIR" && mkdir -p "$CACHE_DIR/ava" && echo ok')).output).toBe(
        `${realpathSync(join(src, 'node_modules'))}/.cache\nok\n`,
      );
      // A harness run has its own tool caches: what the agent's commands cached there is not in them.
      expect((await run('echo planted > node_modules/.cache/xo-linter/entry && echo ok')).output).toBe('ok\n');
      expect((await run('ls -A node_modules/.cache/xo-linter && echo listed', true)).output).toBe('listed\n');
      expect((await run('cat node_modules/.cache/xo-linter/entry')).output).toBe('planted\n');
    },
  );

  itInSandbox(
    'layouts - npm link / workspaces: the packages in node_modules are symlinks into another node_modules under a hidden path, which is shown read-only',
    async () => {
      const { run } = await withLayout((src, outside) => {
        writeFiles(outside, { ...prefixed('node_modules/dep', DEP), ...prefixed('node_modules/@s/other', DEP) });
        mkdirSync(join(src, 'node_modules', '@s'), { recursive: true });
        symlinkSync(join(outside, 'node_modules', 'dep'), join(src, 'node_modules', 'dep'), 'dir');
        symlinkSync(join(outside, 'node_modules', '@s', 'other'), join(src, 'node_modules', '@s', 'other'), 'dir');
      });
      expect((await run('node index.js && node -e "console.log(require(\'@s/other\').answer)"')).output).toBe('42\n42\n');
      expect((await run('touch node_modules/dep/x || exit 7')).exitCode).toBe(7);
    },
  );

  itInSandbox('layouts - pnpm: node_modules/.pnpm holds the packages, node_modules/<name> are relative symlinks into it', async () => {
    const { run } = await withLayout((src) => {
      writeFiles(src, {
        ...prefixed('node_modules/.pnpm/dep@1.0.0/node_modules/dep', DEP),
        'node_modules/.modules.yaml': 'layoutVersion: 5\n',
      });
      symlinkSync('.pnpm/dep@1.0.0/node_modules/dep', join(src, 'node_modules', 'dep'), 'dir');
    });
    expect((await run('node index.js')).output).toBe('42\n');
    expect((await run('ls -l node_modules/dep')).output).toContain('.pnpm/dep@1.0.0/node_modules/dep');
  });

  itInSandbox('layouts - yarn classic / npm: a plain node_modules with a .bin link', async () => {
    const { run } = await withLayout((src) => {
      writeFiles(src, {
        ...prefixed('node_modules/dep', DEP),
        'node_modules/dep/bin.js': '#!/usr/bin/env node\nconsole.log("bin " + require("./").answer);\n',
        'node_modules/.yarn-integrity': '{}\n',
      });
      mkdirSync(join(src, 'node_modules', '.bin'));
      symlinkSync('../dep/bin.js', join(src, 'node_modules', '.bin', 'dep'));
    });
    expect((await run('node index.js && chmod +x node_modules/dep/bin.js 2>/dev/null; node node_modules/.bin/dep')).output).toBe(
      '42\nbin 42\n',
    );
  });
});
