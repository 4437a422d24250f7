import { describe, expect, it } from '@jest/globals';
import { protectedChangesNow, infrastructureChanges } from '../../src/agent/verification/gates/protected-changes.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { tempDir } from '../kit/temp.js';
import { git as gitIn } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';

/*
 * What would run later is flagged (issue 37). Cases by rule, written before the mechanism:
 * - each npm lifecycle script name (npm docs, "Life Cycle Scripts": preinstall install postinstall
 *   prepare prepublish prepublishOnly prepack postpack dependencies) × {added, changed} × {the root
 *   package.json, a workspace package `packages/a/package.json`};
 * - install-time code of other ecosystems: `setup.py` changed, `build.rs` added next to a Cargo.toml,
 *   `pyproject.toml`'s `[build-system]` changed, `binding.gyp` added (npm runs node-gyp for it),
 *   composer.json's `post-install-cmd` added;
 * - a workflow file, a git hook (`.husky/pre-commit`, `.githooks/pre-commit`, `.pre-commit-config.yaml`,
 *   a file under the repository's `core.hooksPath` folder).
 * A case is caught when a gate fails naming the path and the evidence list (infrastructureChanges) names
 * it; `permissions.writable` naming the path lets it through (the gate passes, the list still names it).
 */

const NPM = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'prepublishOnly', 'prepack', 'postpack', 'dependencies'];

interface Case {
  name: string;
  path: string;
  base?: Record<string, string>;
  change: Record<string, string>;
}

const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: 'x', version: '1.0.0', scripts }, null, 2) + '\n';

function cases(): Case[] {
  const out: Case[] = [];
  for (const script of NPM) {
    for (const path of ['package.json', 'packages/a/package.json']) {
      out.push({
        name: `${path} ${script} added`,
        path,
        base: { [path]: pkg({ test: 'node --test' }) },
        change: { [path]: pkg({ test: 'node --test', [script]: 'node x.js' }) },
      });
      out.push({
        name: `${path} ${script} changed`,
        path,
        base: { [path]: pkg({ [script]: 'node a.js' }) },
        change: { [path]: pkg({ [script]: 'curl x | sh' }) },
      });
    }
  }
  out.push(
    {
      name: 'setup.py changed',
      path: 'setup.py',
      base: { 'setup.py': 'from setuptools import setup\nsetup()\n' },
      change: { 'setup.py': 'import os\nos.system("id")\n' },
    },
    {
      name: 'build.rs added',
      path: 'build.rs',
      base: { 'Cargo.toml': '[package]\nname = "x"\n' },
      change: { 'build.rs': 'fn main() {}\n' },
    },
    {
      name: 'pyproject build-system changed',
      path: 'pyproject.toml',
      base: { 'pyproject.toml': '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n' },
      change: { 'pyproject.toml': '[build-system]\nrequires = ["evil"]\nbuild-backend = "evil.backend"\n' },
    },
    { name: 'binding.gyp added', path: 'binding.gyp', change: { 'binding.gyp': '{"targets": []}\n' } },
    {
      name: 'composer post-install-cmd added',
      path: 'composer.json',
      base: { 'composer.json': '{"name": "x/y"}\n' },
      change: { 'composer.json': '{"name": "x/y", "scripts": {"post-install-cmd": "php x.php"}}\n' },
    },
    { name: 'workflow added', path: '.github/workflows/x.yml', change: { '.github/workflows/x.yml': 'on: push\n' } },
    { name: '.husky hook added', path: '.husky/pre-commit', change: { '.husky/pre-commit': 'id\n' } },
    { name: '.githooks hook added', path: '.githooks/pre-commit', change: { '.githooks/pre-commit': 'id\n' } },
    { name: 'pre-commit config added', path: '.pre-commit-config.yaml', change: { '.pre-commit-config.yaml': 'repos: []\n' } },
    { name: 'core.hooksPath target added', path: 'tools/hooks/pre-commit', change: { 'tools/hooks/pre-commit': 'id\n' } },
  );
  return out;
}

function repoWith(files: Record<string, string>): { root: string; base: string } {
  const root = tempDir('proofpr-later-');
  const git = (...args: string[]): string => gitIn(root, ...args).trim();
  git('init', '-q');
  git('config', 'core.hooksPath', 'tools/hooks');
  writeFiles(root, { 'README.md': '# x\n', ...files });
  git('add', '-A');
  git('commit', '-qm', 'base');
  return { root, base: git('rev-parse', 'HEAD') };
}

describe('what would run later is flagged', () => {
  // One test per generated case: each has its own time limit (the whole list took over a minute on a loaded machine).
  it.each(cases().map((c) => [c.name, c] as const))(
    '%s: a gate fails naming the path and infrastructureChanges lists it',
    async (_name, c) => {
      const { root, base } = repoWith(c.base ?? {});
      writeFiles(root, c.change);
      const gates = await protectedChangesNow(root, base);
      const failed = gates.some((g) => !g.passed && g.detail.includes(c.path));
      const listed = (await infrastructureChanges(root, base)).some((x) => x.path === c.path && x.why.length > 0);
      expect({ failed, listed }).toEqual({ failed: true, listed: true });
    },
  );

  it('permissions.writable naming the path opts it in (the gate passes; the list still names it)', async () => {
    for (const c of cases().filter((x) => ['package.json postinstall added', 'setup.py changed', '.husky hook added'].includes(x.name))) {
      const { root, base } = repoWith(c.base ?? {});
      writeFiles(root, c.change);
      const gates = await protectedChangesNow(root, base, { writable: [c.path] });
      expect({ name: c.name, failed: gates.filter((g) => !g.passed).map((g) => g.detail) }).toEqual({ name: c.name, failed: [] });
      expect((await infrastructureChanges(root, base)).map((x) => x.path)).toContain(c.path);
    }
  });

  it('an ordinary change to package.json (a dependency, the test script) is not flagged', async () => {
    const { root, base } = repoWith({ 'package.json': pkg({ test: 'node --test' }) });
    const changed = { name: 'x', version: '1.0.1', scripts: { test: 'node --test', build: 'tsc' }, dependencies: { lodash: '^4.17.21' } };
    writeFiles(root, { 'package.json': JSON.stringify(changed, null, 2) + '\n', 'src/a.js': 'x\n' });
    expect((await protectedChangesNow(root, base)).filter((g) => !g.passed)).toEqual([]);
    expect(await infrastructureChanges(root, base)).toEqual([]);
  });

  it('the evidence and the summary name each change that runs later, with why', async () => {
    const { root, base } = repoWith({ 'package.json': pkg({ test: 'node --test' }) });
    writeFiles(root, { 'package.json': pkg({ test: 'node --test', postinstall: 'node x.js' }), '.husky/pre-commit': 'id\n' });
    const later = await infrastructureChanges(root, base);
    const ev = buildEvidence([], {
      repo: { baseSha: base, branch: 'proofpr/1-x' },
      filesChanged: [],
      verdict: 'unverified',
      reason: 'gates failed',
      infrastructureChanges: later,
    });
    expect(ev.infrastructureChanges?.map((c) => c.path).sort()).toEqual(['.husky/pre-commit', 'package.json']);
    const md = renderSummaryMd(ev);
    expect(md).toContain('### Outside the shipped code, or run later (review these)');
    expect(md).toContain('scripts.postinstall added');
  });
});
