import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export interface HomeCacheInput {
  /** The harness's real home (hidden inside the sandbox). */
  hostHome: string;
  /** The harness's own environment: where the caches are when it says so (GOMODCACHE, CARGO_HOME, …). */
  hostEnv: NodeJS.ProcessEnv;
  /** The per-run HOME of the children: a cache that setup filled there wins over the host's. */
  runHome: string;
  /** The setup exec (with network) keeps its own per-run caches: only tool homes and the Go proxy apply. */
  network: boolean;
}

export interface HomeCaches {
  /** Existing folders bound read-only inside the sandbox (over the hidden home). */
  readOnly: string[];
  /** Environment that points the tools at them (the children's HOME is a per-run folder). */
  env: Record<string, string>;
  /** One line per cache, for the log and the docs: `go modules: /home/u/go/pkg/mod (GOPROXY=file://…)`. */
  notes: string[];
}

const dir = (p: string | undefined): string | undefined => {
  if (!p || !isAbsolute(p)) return undefined;
  try {
    return statSync(p).isDirectory() ? realpathSync(p) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Dependency caches that builds and tests read from the home folder, which the sandbox hides (and the
 * children's HOME is a per-run folder, so the tools would not look there anyway). Each one that exists
 * is made visible READ-ONLY and the tool is pointed at it:
 * - Go modules: the module cache's download folder is a module proxy (`GOPROXY=file://…/cache/download`,
 *   before the usual proxies), so modules are extracted from it into the per-run GOMODCACHE without
 *   network (checked against go.sum as any download) and nothing is ever written to the host's cache
 *   (`-modcacherw`: the per-run copy can be removed). The build cache (GOCACHE) stays per-run: go
 *   writes to it while it builds and fails on a read-only one.
 * - Rust: the toolchains (RUSTUP_HOME, what the `cargo` proxy in ~/.cargo/bin runs) and the cargo
 *   registry and git checkouts (`CARGO_HOME`, unless setup fetched into the per-run one; credentials and
 *   config in ~/.cargo stay hidden).
 * - yarn berry's global cache (~/.yarn/berry: the zip archives a PnP `.pnp.cjs` points at).
 * - corepack's cache (`COREPACK_HOME`: the pnpm or yarn versions it fetched, which its shims and
 *   `corepack pnpm …` run offline).
 * - Python: the user site (`PYTHONUSERBASE`, unless setup installed into the per-run one), pyenv
 *   (`PYENV_ROOT`: its shims and interpreters), virtualenvs (virtualenvwrapper, pipenv, poetry, uv's
 *   interpreters).
 */
export function homeCaches(input: HomeCacheInput): HomeCaches {
  const { hostHome: home, hostEnv: env, runHome } = input;
  const readOnly: string[] = [];
  const out: Record<string, string> = {};
  const notes: string[] = [];
  const show = (label: string, p: string | undefined, set?: Record<string, string>): boolean => {
    if (!p) return false;
    readOnly.push(p);
    Object.assign(out, set ?? {});
    notes.push(
      `${label}: ${p}${
        set
          ? ` (${Object.entries(set)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')})`
          : ''
      }`,
    );
    return true;
  };

  // Go.
  const gopath = (env.GOPATH ?? '').split(':').find((p) => p) ?? join(home, 'go');
  const modcache = dir(env.GOMODCACHE ?? join(gopath, 'pkg', 'mod'));
  const download = dir(modcache && join(modcache, 'cache', 'download'));
  const upstream = env.GOPROXY && env.GOPROXY !== 'off' ? env.GOPROXY : 'https://proxy.golang.org,direct';
  show('go modules', download, { GOPROXY: `file://${download ?? ''},${upstream}`, GOFLAGS: '-modcacherw' });

  // Rust.
  const rustup = dir(env.RUSTUP_HOME ?? join(home, '.rustup'));
  show('rust toolchains', rustup, { RUSTUP_HOME: rustup ?? '' });
  const cargoHome = dir(env.CARGO_HOME ?? join(home, '.cargo'));
  const registry = dir(cargoHome && join(cargoHome, 'registry'));
  const ownRegistry = existsSync(join(runHome, '.cargo', 'registry'));
  if (registry && !input.network && !ownRegistry) {
    show('cargo registry', registry, { CARGO_HOME: cargoHome ?? '' });
    show('cargo git checkouts', dir(join(cargoHome ?? '', 'git')));
  }

  // yarn berry.
  show('yarn berry global cache', dir(env.YARN_GLOBAL_FOLDER ?? join(home, '.yarn', 'berry')));

  // corepack: the package managers it fetched (the readiness probe before a run fetches them there).
  // Children never pin packageManager into package.json (COREPACK_ENABLE_AUTO_PIN) nor wait on a prompt.
  const corepack = dir(env.COREPACK_HOME ?? join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'node', 'corepack'));
  show('corepack cache', corepack, { COREPACK_HOME: corepack ?? '', COREPACK_ENABLE_AUTO_PIN: '0', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' });

  // Python.
  const userBase = dir(env.PYTHONUSERBASE ?? join(home, '.local'));
  const userLib = dir(userBase && join(userBase, 'lib'));
  if (userLib && !input.network && !existsSync(join(runHome, '.local', 'lib')))
    show('python user site', userLib, { PYTHONUSERBASE: userBase ?? '' });
  const pyenv = dir(env.PYENV_ROOT ?? join(home, '.pyenv'));
  show('pyenv', pyenv, { PYENV_ROOT: pyenv ?? '' });
  for (const [label, p] of [
    ['virtualenvs', env.WORKON_HOME ?? join(home, '.virtualenvs')],
    ['pipenv virtualenvs', join(home, '.local', 'share', 'virtualenvs')],
    ['poetry virtualenvs', env.POETRY_VIRTUALENVS_PATH ?? join(home, '.cache', 'pypoetry', 'virtualenvs')],
    ['uv interpreters', join(home, '.local', 'share', 'uv', 'python')],
  ] as const) {
    show(label, dir(p));
  }
  return { readOnly: [...new Set(readOnly)], env: out, notes };
}
