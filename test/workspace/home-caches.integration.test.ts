import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createExec } from '../../src/workspace/exec.js';
import { homeCaches } from '../../src/workspace/home-caches.js';
import { sh, writeFiles } from './git-fixtures.js';
import { tempDir } from '../kit/temp.js';
import { afterThisTest, itInSandbox } from '../kit/walls-exec.js';

const listing = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

/** The system python's version (the user site is ~/.local/lib/pythonX.Y/site-packages). */
const PY = '/usr/bin/python3';
const pyVersion = (): string =>
  execFileSync(PY, ['-c', 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")'], { encoding: 'utf8' }).trim();

/**
 * A home folder as a developer's or a runner's looks after installs: a Go module cache filled by a
 * real `go mod download` (from a local file proxy holding example.com/dep, see goModule), a cargo
 * registry, yarn berry's global cache, a Python user site, pyenv, a virtualenv; and a secret.
 */
function fakeHome(): { home: string; py: string } {
  const home = join(tempDir('proofpr-home-'), 'home');
  const py = pyVersion();
  writeFiles(home, {
    '.git-credentials': 'https://x:SECRET_CRED@example.test\n',
    '.cargo/credentials.toml': '[registry]\ntoken = "SECRET_CARGO"\n',
    '.cargo/registry/src/index.crates.io-1/serde-1.0.0/Cargo.toml': '[package]\nname = "serde"\n',
    '.cargo/git/checkouts/x/README': 'git dep\n',
    '.yarn/berry/cache/lodash-npm-4.17.21-6382451519-eb835a2e51.zip': 'zip\n',
    [`.local/lib/python${py}/site-packages/homesite.py`]: 'VALUE = 42\n',
    '.pyenv/versions/3.12.0/bin/python': '#!/bin/sh\n',
    '.virtualenvs/proj/bin/activate': '# venv\n',
  });
  // The Go module cache, filled the way `go mod download` fills it.
  const proxy = join(dirname(home), 'proxy', 'example.com', 'dep', '@v');
  mkdirSync(proxy, { recursive: true });
  writeFileSync(join(proxy, 'list'), 'v1.0.0\n');
  writeFileSync(join(proxy, 'v1.0.0.info'), '{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}\n');
  writeFileSync(join(proxy, 'v1.0.0.mod'), 'module example.com/dep\n\ngo 1.19\n');
  execFileSync(PY, [
    '-c',
    `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w')\nz.writestr('example.com/dep@v1.0.0/go.mod','module example.com/dep\\n\\ngo 1.19\\n')\nz.writestr('example.com/dep@v1.0.0/dep.go','package dep\\n\\nfunc Two() int { return 2 }\\n')\nz.close()`,
    join(proxy, 'v1.0.0.zip'),
  ]);
  return { home, py };
}

/** A Go module that needs example.com/dep, with the go.sum a real download wrote; the module cache lands in `home`. */
function goModule(home: string): string {
  const dir = join(tempDir('proofpr-gomod-'), 'm');
  writeFiles(dir, {
    'go.mod': 'module example.com/m\n\ngo 1.19\n\nrequire example.com/dep v1.0.0\n',
    'm_test.go':
      'package m\n\nimport (\n\t"testing"\n\n\t"example.com/dep"\n)\n\nfunc TestTwo(t *testing.T) {\n\tif dep.Two() != 2 {\n\t\tt.Fatal("two")\n\t}\n}\n',
  });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GOPATH: join(home, 'go'),
    GOFLAGS: '-modcacherw',
    GOPROXY: `file://${dirname(home)}/proxy`,
    GOSUMDB: 'off',
    GOCACHE: join(dirname(home), 'gocache'),
  };
  execFileSync('go', ['mod', 'download', 'all'], { cwd: dir, env });
  execFileSync('go', ['mod', 'tidy'], { cwd: dir, env });
  sh(dir, 'init', '-q', '-b', 'main');
  return dir;
}

describe('home caches - visible read-only inside the sandbox, the tools pointed at them', () => {
  it('homeCaches - finds each cache of a home; setup (network) and a cache setup filled keep their per-run ones', () => {
    const { home, py } = fakeHome();
    goModule(home);
    const runHome = join(dirname(home), 'run-home');
    mkdirSync(runHome);
    const c = homeCaches({ hostHome: home, hostEnv: {}, runHome, network: false });
    expect(c.readOnly).toEqual(
      expect.arrayContaining([
        join(home, 'go/pkg/mod/cache/download'),
        join(home, '.cargo/registry'),
        join(home, '.cargo/git'),
        join(home, '.yarn/berry'),
        join(home, '.local/lib'),
        join(home, '.pyenv'),
        join(home, '.virtualenvs'),
      ]),
    );
    expect(c.readOnly).not.toContain(join(home, '.cargo'));
    expect(c.readOnly).not.toContain(join(home, '.cache/go-build'));
    expect(c.env).toMatchObject({
      GOPROXY: `file://${join(home, 'go/pkg/mod/cache/download')},https://proxy.golang.org,direct`,
      CARGO_HOME: join(home, '.cargo'),
      PYTHONUSERBASE: join(home, '.local'),
      PYENV_ROOT: join(home, '.pyenv'),
    });
    expect(py).toMatch(/^3\./);
    // Setup runs with network and installs into the per-run home; afterwards what it filled wins.
    const setup = homeCaches({ hostHome: home, hostEnv: {}, runHome, network: true });
    expect(setup.env).not.toHaveProperty('CARGO_HOME');
    expect(setup.env).not.toHaveProperty('PYTHONUSERBASE');
    expect(setup.env.GOPROXY).toBe(c.env.GOPROXY);
    mkdirSync(join(runHome, '.cargo/registry'), { recursive: true });
    mkdirSync(join(runHome, '.local/lib'), { recursive: true });
    const after = homeCaches({ hostHome: home, hostEnv: {}, runHome, network: false });
    expect(after.env).not.toHaveProperty('CARGO_HOME');
    expect(after.env).not.toHaveProperty('PYTHONUSERBASE');
    // The environment's own locations win over the defaults.
    expect(
      homeCaches({
        hostHome: join(home, 'nowhere'),
        hostEnv: { CARGO_HOME: join(home, '.cargo'), GOPROXY: 'off' },
        runHome: join(home, 'x'),
        network: false,
      }).env,
    ).toEqual({ CARGO_HOME: join(home, '.cargo') });
  });

  itInSandbox(
    'sandbox - each home cache is visible and not writable, the rest of the home stays hidden; go test and python use them offline',
    async () => {
      const { home, py } = fakeHome();
      const mod = goModule(home);
      expect(existsSync(join(home, 'go/pkg/mod/cache/download/example.com/dep/@v/v1.0.0.zip'))).toBe(true);
      const before = listing(join(home, 'go'));
      const h = await createExec({
        root: mod,
        runTmp: join(dirname(mod), 'run'),
        sandbox: 'required',
        hidePaths: [home],
        hostHome: home,
        hostEnv: {},
        killGraceMs: 200,
      });
      afterThisTest(() => h.dispose());
      const run = async (command: string) => h.exec({ command, cwd: mod, timeoutMs: 120_000 });
      const caches: Array<[string, string]> = [
        ['go/pkg/mod/cache/download/example.com/dep/@v/list', 'v1.0.0'],
        ['.cargo/registry/src/index.crates.io-1/serde-1.0.0/Cargo.toml', 'serde'],
        ['.cargo/git/checkouts/x/README', 'git dep'],
        ['.yarn/berry/cache/lodash-npm-4.17.21-6382451519-eb835a2e51.zip', 'zip'],
        [`.local/lib/python${py}/site-packages/homesite.py`, 'VALUE'],
        ['.pyenv/versions/3.12.0/bin/python', '#!/bin/sh'],
        ['.virtualenvs/proj/bin/activate', '# venv'],
      ];
      for (const [file, text] of caches) {
        const p = join(home, file);
        expect((await run(`cat ${p}`)).output).toContain(text);
        const w = await run(`echo x >> ${p} || exit 7; touch ${dirname(p)}/new || exit 8`);
        expect(`${file}: ${w.exitCode}`).toBe(`${file}: 7`);
        expect(existsSync(join(dirname(p), 'new'))).toBe(false);
      }
      const secrets = await run(`cat ${home}/.git-credentials ${home}/.cargo/credentials.toml; grep -r SECRET ${home} 2>/dev/null; true`);
      expect(secrets.output).not.toContain('SECRET');
      // go test with no network: example.com/dep comes from the home's module cache (checked against go.sum).
      const go = await run('go test -count=1 ./...');
      expect(`${go.exitCode} ${go.output}`).toMatch(/^0 [\s\S]*^ok\s+example\.com\/m/m);
      // The system python finds the home's user site.
      const pyRun = await run(`${PY} -c "import homesite; print(homesite.VALUE)"`);
      expect(pyRun.output.trim()).toBe('42');
      // Nothing was added to the host's module cache.
      expect(listing(join(home, 'go'))).toEqual(before);
    },
    180_000,
  );
});
