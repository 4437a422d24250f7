#!/usr/bin/env node
/**
 * The release's steps, called by .github/workflows/release.yml after CI passed on the tag:
 *   1. the tag must be v<package.json version>;
 *   1b. package.json names its GitHub repository, homepage and bugs (npm's provenance check), and the README's
 *      `uses: OWNER/NAME@vN` lines name that repository and the major tag this version moves;
 *   2. release notes: CHANGELOG.md's `## [<version>]` section, written to <out>/release-notes.md (a dry run
 *      before that section exists takes the [Unreleased] entries and says so);
 *   3. the npm tarball: `npm pack` into <out> (after `npm run build` unless --no-build);
 *   4. `npm publish <tarball> --provenance --access public` (trusted publishing through the workflow's OIDC
 *      token; with NPM_TOKEN set, a temporary user config carries it for the configured registry);
 *   5. the GitHub release: `gh release create <tag> <tarball> --notes-file <notes> --verify-tag`;
 *   6. the Action's major tag (v1 for 1.x.y; none for a pre-release) moved to the tagged commit and pushed.
 * With --dry-run nothing leaves the machine: 1–3 are done for real, 4 is checked by `npm publish --dry-run
 * --offline --provenance` and printed, 5 is printed, and 6 is done in a
 * temporary clone (the tag moved there, the push printed). <out>/release-plan.json records everything.
 *
 *   node scripts/release.mjs [--dry-run] [--tag vX.Y.Z] [--out DIR] [--no-build]
 * The tag defaults to GITHUB_REF_NAME, then v<package.json version>. Exit 0 done, 1 a step failed, 2 bad input.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export class ReleaseInputError extends Error {}

export function parseArgs(argv) {
  const opts = { dryRun: false, build: true, tag: undefined, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dry-run') opts.dryRun = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--tag' || a === '--out') {
      const v = argv[++i];
      if (!v) throw new ReleaseInputError(`${a} needs a value`);
      opts[a.slice(2)] = v;
    } else throw new ReleaseInputError(`unknown argument ${a} (expected --dry-run, --tag vX.Y.Z, --out DIR, --no-build)`);
  }
  return opts;
}

/** CHANGELOG.md's section for `version` (Keep a Changelog: `## [1.2.3] - 2026-01-02`), without its heading. */
export function releaseNotes(changelog, version) {
  const lines = changelog.split('\n');
  const heading = new RegExp(`^## \\[${version.replace(/[.+]/g, '\\$&')}\\](\\s|$)`);
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) {
    throw new ReleaseInputError(
      `CHANGELOG.md has no "## [${version}]" section: move the [Unreleased] entries under "## [${version}] - <date>" and commit before tagging`,
    );
  }
  let end = lines.findIndex((l, i) => i > start && /^## \[/.test(l));
  if (end < 0) end = lines.length;
  const body = lines
    .slice(start + 1, end)
    .filter((l) => !/^\[[^\]]+\]:\s/.test(l))
    .join('\n')
    .trim();
  if (!body) throw new ReleaseInputError(`CHANGELOG.md's "## [${version}]" section is empty: list what changed`);
  return `${body}\n`;
}

/**
 * The notes of a dry run before the version's section exists: the [Unreleased] entries, with a warning (the
 * real release still refuses a missing section). Returns { notes, from, warning? }.
 */
export function dryRunNotes(changelog, version) {
  try {
    return { notes: releaseNotes(changelog, version), from: version };
  } catch (e) {
    if (!(e instanceof ReleaseInputError) || !/has no "## \[/.test(e.message)) throw e;
    return {
      notes: releaseNotes(changelog, 'Unreleased'),
      from: 'Unreleased',
      warning: `CHANGELOG.md has no "## [${version}]" section yet: these notes are the [Unreleased] entries; move them under "## [${version}] - <date>" before tagging`,
    };
  }
}

/** `owner/name` of a GitHub repository URL (git+https, https, ssh forms), or undefined. */
export function githubSlug(url) {
  const m = /github\.com[/:]([^/]+)\/([^/#]+?)(\.git)?(#.*)?$/.exec(String(url ?? ''));
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * What npm's provenance check needs and can be checked offline: package.json's `repository` (a GitHub
 * repository: the provenance statement must name the repository the package says it comes from),
 * `homepage` and `bugs`. Also: the README's `uses: <owner>/<name>@vN` lines name that repository and the
 * major tag this version moves, so the Action's documented pin exists after the release.
 */
export function publishProblems(pkg, readme) {
  const out = [];
  const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const slug = githubSlug(repoUrl);
  if (!slug)
    out.push(
      'package.json: "repository" must name the GitHub repository (e.g. {"type": "git", "url": "git+https://github.com/OWNER/NAME.git"}): npm publish --provenance refuses a package without it',
    );
  if (!pkg.homepage) out.push('package.json: "homepage" is missing (the repository\'s README URL)');
  if (!pkg.bugs) out.push('package.json: "bugs" is missing (the repository\'s issues URL)');
  const major = majorTag(pkg.version);
  // The Action's own pins: `uses: <owner>/<package name>@vN` (other actions in the examples are not ours).
  const ours = new RegExp(`uses: ([\\w.-]+/${pkg.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})@(v\\d+)\\b`, 'g');
  for (const m of readme.matchAll(ours)) {
    if (slug && m[1] !== slug) out.push(`README.md: "uses: ${m[1]}@${m[2]}" names another repository than package.json's ${slug}`);
    if (major && m[2] !== major)
      out.push(
        `README.md: "uses: ${m[1]}@${m[2]}" pins ${m[2]}, but releasing ${pkg.version} moves ${major}: bump the version or fix the README`,
      );
  }
  return out;
}

/** `v1` for 1.4.2 (`v0` for 0.x); none for a pre-release (1.5.0-rc.1), which must not move what users pin. */
export function majorTag(version) {
  const m = /^(\d+)\.\d+\.\d+$/.exec(version);
  return m ? `v${m[1]}` : undefined;
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

function tryRun(cmd, args, opts = {}) {
  try {
    return run(cmd, args, opts).trim();
  } catch {
    return undefined;
  }
}

function pack(out, build) {
  if (build) run('npm', ['run', 'build'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out]));
  const first = packed[0];
  return { tarball: join(out, first.filename), files: first.files.map((f) => f.path), size: first.size };
}

/** The tag move, for real or in a temporary clone (dry run): returns what moved and the push command. */
function moveMajorTag(name, sha, dryRun) {
  const previous = tryRun('git', ['rev-parse', '--verify', '--quiet', `refs/tags/${name}^{commit}`]);
  const push = ['git', 'push', '--force', 'origin', `refs/tags/${name}`];
  if (!dryRun) {
    run('git', ['tag', '--force', '--annotate', name, '--message', `${name} → ${sha}`, sha]);
    run(push[0], push.slice(1));
    return { name, from: previous ?? null, to: sha, pushed: true, command: push.join(' ') };
  }
  const clone = mkdtempSync(join(tmpdir(), 'proofpr-release-tag-'));
  try {
    run('git', ['clone', '--quiet', '--no-checkout', '--shared', root, clone]);
    const git = (args) => run('git', ['-C', clone, '-c', 'user.name=proofpr-release', '-c', 'user.email=release@invalid', ...args]);
    git(['tag', '--force', '--annotate', name, '--message', `${name} → ${sha}`, sha]);
    const moved = git(['rev-parse', `refs/tags/${name}^{commit}`]).trim();
    return { name, from: previous ?? null, to: moved, pushed: false, command: push.join(' ') };
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

/** A user config carrying NPM_TOKEN for the configured registry (no registry is named in this repository). */
function tokenConfig(out) {
  const token = process.env.NPM_TOKEN;
  if (!token) return [];
  const registry = new URL(run('npm', ['config', 'get', 'registry']).trim());
  const file = join(out, '.npmrc-release');
  writeFileSync(file, `//${registry.host}${registry.pathname.replace(/\/?$/, '/')}:_authToken=\${NPM_TOKEN}\n`, { mode: 0o600 });
  return ['--userconfig', file];
}

export function release(opts) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const tag = opts.tag ?? process.env.GITHUB_REF_NAME ?? `v${pkg.version}`;
  if (tag !== `v${pkg.version}`) {
    throw new ReleaseInputError(
      `tag ${tag} does not match package.json version ${pkg.version}: tag v${pkg.version}, or bump the version first`,
    );
  }
  const version = pkg.version;
  const out = resolve(opts.out ?? mkdtempSync(join(tmpdir(), 'proofpr-release-')));
  mkdirSync(out, { recursive: true });
  const problems = publishProblems(pkg, readFileSync(join(root, 'README.md'), 'utf8'));
  if (problems.length > 0) throw new ReleaseInputError(`not publishable:\n  ${problems.join('\n  ')}`);
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const {
    notes,
    from: notesFrom,
    warning,
  } = opts.dryRun ? dryRunNotes(changelog, version) : { notes: releaseNotes(changelog, version), from: version };
  const notesFile = join(out, 'release-notes.md');
  writeFileSync(notesFile, notes);
  // The tagged commit when the tag exists here (the workflow), else HEAD (a dry run before tagging).
  const sha = tryRun('git', ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]) ?? run('git', ['rev-parse', 'HEAD']).trim();
  const packed = pack(out, opts.build);
  const publish = ['npm', 'publish', packed.tarball, '--provenance', '--access', 'public'];
  const ghRelease = ['gh', 'release', 'create', tag, packed.tarball, '--title', tag, '--notes-file', notesFile, '--verify-tag'];
  if (/-/.test(version)) {
    publish.push('--tag', 'next');
    ghRelease.push('--prerelease');
  }
  // npm's own checks of the tarball and its provenance options, offline: nothing leaves the machine.
  const checked = ['npm', 'publish', packed.tarball, '--dry-run', '--offline', '--provenance', '--ignore-scripts', '--access', 'public'];
  if (opts.dryRun) run(checked[0], checked.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  if (!opts.dryRun) {
    run(publish[0], [...publish.slice(1), ...tokenConfig(out)], { stdio: ['ignore', 'inherit', 'inherit'] });
    run(ghRelease[0], ghRelease.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const major = majorTag(version);
  const tagMove = major ? moveMajorTag(major, sha, opts.dryRun) : null;
  const plan = {
    dryRun: opts.dryRun,
    version,
    tag,
    commit: sha,
    tarball: packed.tarball,
    tarballFiles: packed.files.length,
    notes: notesFile,
    notesFrom,
    ...(warning ? { warning } : {}),
    publish: { command: publish.join(' '), done: !opts.dryRun },
    ...(opts.dryRun ? { publishChecked: checked.join(' ') } : {}),
    githubRelease: { command: ghRelease.join(' '), done: !opts.dryRun },
    majorTag: tagMove,
  };
  writeFileSync(join(out, 'release-plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
  return plan;
}

function print(plan) {
  const say = (s) => process.stdout.write(`${s}\n`);
  say(`${plan.dryRun ? 'dry run: ' : ''}release ${plan.tag} (${plan.commit.slice(0, 12)})`);
  say(`  tarball: ${plan.tarball} (${plan.tarballFiles} files)`);
  say(`  notes:   ${plan.notes}${plan.notesFrom !== plan.version ? ` (from [${plan.notesFrom}])` : ''}`);
  if (plan.warning) say(`  warning: ${plan.warning}`);
  if (plan.publishChecked) say(`  checked: ${plan.publishChecked} (passed)`);
  say(`  ${plan.publish.done ? 'published' : 'would run'}: ${plan.publish.command}`);
  say(`  ${plan.githubRelease.done ? 'released' : 'would run'}: ${plan.githubRelease.command}`);
  if (plan.majorTag) {
    const m = plan.majorTag;
    say(
      `  ${m.name}: ${m.from ? m.from.slice(0, 12) : '(new)'} → ${m.to.slice(0, 12)}${m.pushed ? ' (pushed)' : ` (moved in a temporary clone; would run: ${m.command})`}`,
    );
  } else say('  no major tag moves (a pre-release or a 0.x version)');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    print(release(parseArgs(process.argv.slice(2))));
  } catch (e) {
    process.stderr.write(`release: ${e.message}\n`);
    process.exit(e instanceof ReleaseInputError ? 2 : 1);
  }
}
