/*
 * Code the change adds or changes that runs later, on someone else's machine or in CI, without anyone
 * running the change's own code (docs/security.md, "persistence in committed files"): besides npm's
 * lifecycle scripts (protected-changes.ts) and the control files (protected-paths.ts: workflows, hooks
 * folders, hook runners' configs), the install-time code of other ecosystems and the folder the
 * repository's `core.hooksPath` names. Covered:
 * - `setup.py` (pip runs it to build or install an sdist), a `[build-system]` change in `pyproject.toml`
 *   (pip imports and runs that build backend), `build.rs` (cargo runs it before compiling the crate, also
 *   in every crate that depends on it), `binding.gyp` (npm runs `node-gyp rebuild` at install for a
 *   package holding one), `extconf.rb` (gem install runs it), `Makefile.PL` / `Build.PL` (cpan runs them);
 * - composer.json `scripts` of install/update events (composer runs them on `install` / `update`);
 * - any file under the folder `core.hooksPath` names, when that folder is inside the worktree.
 * Not covered: code a build tool loads when a maintainer builds on purpose (Makefiles, Gradle scripts,
 * `conftest.py`): that is the project's own code, run when its tests run, and tested here.
 */
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { git } from '../../../workspace/git.js';
import type { FileDiff } from '../changes/worktree-diff.js';

/** A change that runs later, and why (evidence `infrastructureChanges`). */
export interface LaterChange {
  path: string;
  why: string;
}

/** Files whose every change is install-time code, by base name. */
const INSTALL_FILES: Record<string, string> = {
  'setup.py': 'pip runs setup.py when it builds or installs the package',
  'build.rs': 'cargo compiles and runs build.rs before building the crate (and in every crate that depends on it)',
  'binding.gyp': 'npm runs node-gyp rebuild at install for a package holding binding.gyp',
  'extconf.rb': 'gem install runs extconf.rb to build the native extension',
  'Makefile.PL': 'cpan runs Makefile.PL when it installs the module',
  'Build.PL': 'cpan runs Build.PL when it installs the module',
};

/** composer's script events run by `composer install` / `update` (getcomposer.org, "Scripts"). */
const COMPOSER_EVENTS = [
  'pre-install-cmd',
  'post-install-cmd',
  'pre-update-cmd',
  'post-update-cmd',
  'pre-autoload-dump',
  'post-autoload-dump',
  'post-root-package-install',
  'post-create-project-cmd',
  'pre-package-install',
  'post-package-install',
  'pre-package-update',
  'post-package-update',
];

async function before(root: string, baseSha: string, path: string, gitDir?: string): Promise<string | undefined> {
  const env = gitDir ? { GIT_DIR: gitDir, GIT_WORK_TREE: root } : undefined;
  const r = await git(['show', `${baseSha}:${path}`], { cwd: root, okCodes: [0, 128], ...(env ? { env } : {}) }).catch(() => undefined);
  return r?.code === 0 ? r.stdout : undefined;
}

const now = (root: string, path: string): Promise<string | undefined> => readFile(join(root, path), 'utf8').catch(() => undefined);

/** The `[build-system]` table of a pyproject.toml, as text (up to the next table header). */
function buildSystem(text: string | undefined): string {
  const m = /^\[build-system\][^\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text ?? '');
  return (m?.[1] ?? '').replace(/\s+/g, ' ').trim();
}

function composerScripts(text: string | undefined): Record<string, string> {
  try {
    const s = (JSON.parse(text ?? '{}') as { scripts?: Record<string, unknown> }).scripts ?? {};
    return Object.fromEntries(COMPOSER_EVENTS.filter((e) => s[e] !== undefined).map((e) => [e, JSON.stringify(s[e])]));
  } catch {
    return {};
  }
}

/** The folder the repository's own `core.hooksPath` names (its config file: the harness sets its own value), worktree-relative, when inside the worktree. */
async function hooksFolder(root: string, gitDir?: string): Promise<string | undefined> {
  const env = gitDir ? { GIT_DIR: gitDir, GIT_WORK_TREE: root } : undefined;
  const r = await git(['config', '--local', '--get', 'core.hooksPath'], { cwd: root, okCodes: [0, 1], ...(env ? { env } : {}) }).catch(
    () => undefined,
  );
  const v = r?.code === 0 ? r.stdout.trim() : '';
  if (!v || v.startsWith('/') || v.startsWith('~')) return undefined;
  const rel = posix.normalize(v.replace(/\\/g, '/')).replace(/\/+$/, '');
  return rel === '.' || rel.startsWith('..') ? undefined : rel;
}

/** Install-time code and hooksPath files among the diffs (see the header). */
export async function installTimeChanges(
  root: string,
  baseSha: string,
  diffs: readonly FileDiff[],
  gitDir?: string,
): Promise<LaterChange[]> {
  const out: LaterChange[] = [];
  const hooks = await hooksFolder(root, gitDir);
  for (const d of diffs) {
    const name = posix.basename(d.path);
    const fixed = INSTALL_FILES[name];
    if (d.path.split('/').some((c) => c === 'node_modules' || c === 'vendor')) continue;
    if (fixed) out.push({ path: d.path, why: `${fixed}; ${d.status}` });
    else if (hooks && (d.path === hooks || d.path.startsWith(`${hooks}/`)))
      out.push({ path: d.path, why: `git runs the hooks in ${hooks}/ (core.hooksPath) on a maintainer's machine; ${d.status}` });
    else if (name === 'pyproject.toml' && d.status !== 'deleted') {
      const [a, b] = [buildSystem(await before(root, baseSha, d.path, gitDir)), buildSystem(await now(root, d.path))];
      if (a !== b)
        out.push({ path: d.path, why: 'its [build-system] changed: pip imports and runs that build backend when it installs the package' });
    } else if (name === 'composer.json' && d.status !== 'deleted') {
      const [a, b] = [composerScripts(await before(root, baseSha, d.path, gitDir)), composerScripts(await now(root, d.path))];
      const changed = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((e) => a[e] !== b[e]);
      if (changed.length) out.push({ path: d.path, why: `composer runs scripts ${changed.join(', ')} on install or update; changed` });
    }
  }
  return out;
}
