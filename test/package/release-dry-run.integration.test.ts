/**
 * The release workflow's steps as a script (scripts/release.mjs --dry-run): it produces the npm tarball, the
 * release notes from CHANGELOG.md's section for the version, and the move of the Action's major tag (done
 * in a temporary clone, the push printed), and touches neither the registry, GitHub, nor this repository's
 * tags. The tarball then runs `proofpr demo` offline: unpacked, with this repository's node_modules as its
 * dependencies (an `npm install <tarball> --offline` needs every dependency in the npm cache, which a
 * machine that installed with `npm ci` long ago may not have; see pack-install.test.ts for the registry
 * install). `--no-build` packs the current build/ (scripts/test.mjs builds before the suite).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { tempDir } from '../kit/temp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const major = `v${pkg.version.split('.')[0]}`;

interface Plan {
  dryRun: boolean;
  version: string;
  tag: string;
  commit: string;
  tarball: string;
  notes: string;
  notesFrom: string;
  publishChecked?: string;
  publish: { command: string; done: boolean };
  githubRelease: { command: string; done: boolean };
  majorTag: { name: string; from: string | null; to: string; pushed: boolean; command: string } | null;
}

let dir: string;
let out: string;
let stdout: string;
let plan: Plan;
let unpacked: string;
let tagsBefore: string;

function tags(): string {
  return execFileSync('git', ['tag', '--list'], { cwd: root, encoding: 'utf8' });
}

function walk(d: string): string[] {
  return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
}

beforeAll(() => {
  dir = tempDir('proofpr-release-');
  out = join(dir, 'out');
  tagsBefore = tags();
  stdout = execFileSync('node', ['scripts/release.mjs', '--dry-run', '--no-build', '--tag', `v${pkg.version}`, '--out', out], {
    cwd: root,
    encoding: 'utf8',
    // No credentials reach a dry run: nothing could be published even by mistake.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir },
  });
  plan = JSON.parse(readFileSync(join(out, 'release-plan.json'), 'utf8')) as Plan;
  unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', plan.tarball, '-C', unpacked]);
  symlinkSync(join(root, 'node_modules'), join(unpacked, 'package', 'node_modules'));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('release dry run', () => {
  test('packs the tarball for the version', () => {
    expect(plan.dryRun).toBe(true);
    expect(plan.tarball).toBe(join(out, `proofpr-${pkg.version}.tgz`));
    expect(existsSync(plan.tarball)).toBe(true);
    expect(stdout).toContain(`dry run: release v${pkg.version}`);
  });

  test("writes the release notes from CHANGELOG.md's section for the version", () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const notes = readFileSync(plan.notes, 'utf8');
    // Before the release commit the version has no section yet: the dry run shows the [Unreleased] entries.
    const heading = changelog.includes(`## [${pkg.version}]`) ? pkg.version : 'Unreleased';
    expect(plan.notesFrom).toBe(heading);
    if (heading === 'Unreleased') expect(stdout).toContain(`CHANGELOG.md has no "## [${pkg.version}]" section yet`);
    const section = changelog.split(`## [${heading}]`)[1]!.split('\n## [')[0]!;
    expect(notes.trim()).toBe(section.split('\n').slice(1).join('\n').trim());
    expect(notes).not.toContain('## [');
  });

  test('moves the major tag in a temporary clone and prints the push; the repository keeps its tags', () => {
    const previous = spawnSync('git', ['rev-parse', '--verify', '--quiet', `refs/tags/${major}^{commit}`], { cwd: root, encoding: 'utf8' });
    expect(plan.majorTag).toEqual({
      name: major,
      from: previous.status === 0 ? previous.stdout.trim() : null,
      to: plan.commit,
      pushed: false,
      command: `git push --force origin refs/tags/${major}`,
    });
    // Before the version is tagged, a dry run releases HEAD (others may have committed since: an ancestor).
    expect(spawnSync('git', ['merge-base', '--is-ancestor', plan.commit, 'HEAD'], { cwd: root }).status).toBe(0);
    expect(stdout).toContain(`would run: git push --force origin refs/tags/${major}`);
    expect(tags()).toBe(tagsBefore);
  });

  test("passes npm's offline publish checks with provenance", () => {
    expect(plan.publishChecked).toBe(`npm publish ${plan.tarball} --dry-run --offline --provenance --ignore-scripts --access public`);
    expect(stdout).toContain('(passed)');
  });

  test('README, the docs, the examples, action.yml and the release name the same major tag and repository', () => {
    const meta = pkg as unknown as { name: string; repository?: { url?: string }; homepage?: string; bugs?: unknown };
    const slug = /github\.com\/([^/]+\/[^/]+?)(\.git)?$/.exec(meta.repository?.url ?? '')?.[1];
    expect(slug).toBe(`proofpr/${meta.name}`);
    expect(meta.homepage).toBeTruthy();
    expect(meta.bugs).toBeTruthy();
    expect(major).toBe('v1');
    expect(plan.majorTag?.name).toBe(major);
    const files = [
      'README.md',
      'docs/action.md',
      ...readdirSync(join(root, 'examples', 'workflows')).map((f) => `examples/workflows/${f}`),
    ];
    const pins = files.flatMap((f) =>
      [...readFileSync(join(root, f), 'utf8').matchAll(/uses: ([\w.-]+\/proofpr)@([\w.-]+)/g)].map((m) => `${f}: ${m[1]}@${m[2]}`),
    );
    expect(pins.length).toBeGreaterThan(3);
    expect(pins.filter((p) => !p.endsWith(`${slug}@${major}`) && !p.includes('<your-fork>'))).toEqual([]);
    const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8')) as { runs: { using: string; main: string } };
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js' });
  });

  test('publishes with provenance and creates the release from the notes, printed only', () => {
    expect(plan.publish).toEqual({ command: `npm publish ${plan.tarball} --provenance --access public`, done: false });
    expect(plan.githubRelease.command).toBe(
      `gh release create v${pkg.version} ${plan.tarball} --title v${pkg.version} --notes-file ${plan.notes} --verify-tag`,
    );
    expect(plan.githubRelease.done).toBe(false);
  });

  test('a tag that does not match the version is refused, naming the fix (exit 2)', () => {
    const res = spawnSync('node', ['scripts/release.mjs', '--dry-run', '--no-build', '--tag', 'v99.0.0', '--out', join(dir, 'bad')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain(`tag v99.0.0 does not match package.json version ${pkg.version}`);
  });
});

describe('the packed tarball, offline', () => {
  test('has no Action bundle, and nothing in bin/ or build/ loads dist/', () => {
    const pkgDir = join(unpacked, 'package');
    expect(existsSync(join(pkgDir, 'dist'))).toBe(false);
    const code = [...walk(join(pkgDir, 'bin')), ...walk(join(pkgDir, 'build'))].filter((f) => f.endsWith('.js'));
    expect(code.length).toBeGreaterThan(10);
    expect(code.filter((f) => /['"](\.\.?\/)+dist\//.test(readFileSync(f, 'utf8')))).toEqual([]);
  });

  test('proofpr demo exits 0 from the unpacked tarball', () => {
    const cwd = join(dir, 'empty');
    mkdirSync(cwd);
    const res = spawnSync('node', [join(unpacked, 'package', 'bin', 'proofpr.js'), 'demo'], {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ANTHROPIC_API_KEY: '', PROOFPR_HOME: join(cwd, '.proofpr') },
    });
    expect(res.stdout).toContain('verdict: verified (exit code 0)');
    expect(res.status).toBe(0);
  }, 150_000);
});

describe('the release workflow and the Action metadata', () => {
  test('release.yml runs CI on the tag, then the script with OIDC for provenance', () => {
    const wf = parseYaml(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as {
      on: { push: { tags: string[] } };
      jobs: Record<string, { needs?: string; permissions?: Record<string, string>; steps: Array<{ run?: string }> }>;
    };
    expect(wf.on.push.tags.length).toBeGreaterThan(0);
    expect(wf.jobs.ci!.steps.map((s) => s.run)).toContain('bash .ci/run');
    const rel = wf.jobs.release!;
    expect(rel.needs).toBe('ci');
    expect(rel.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    expect(rel.steps.some((s) => s.run?.startsWith('node scripts/release.mjs --tag'))).toBe(true);
  });

  test('action.yml is Marketplace-ready: name, a description under 125 characters, branding', () => {
    const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8')) as {
      name: string;
      description: string;
      branding: { icon: string; color: string };
      runs: { using: string; main: string };
    };
    expect(action.name.length).toBeGreaterThan(0);
    expect(action.description.length).toBeLessThan(125);
    expect(action.branding).toEqual({ icon: expect.any(String), color: expect.any(String) });
    expect(action.runs.main).toBe('dist/index.js');
  });
});
