// Builds (once) the large fixture repository the tools bench runs on: two copies of this project's
// node_modules (≥ 30k files) committed into a git repo under bench/.cache/tools-fixture.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixtureDir = join(projectRoot, 'bench', '.cache', 'tools-fixture');
const doneMarker = join(projectRoot, 'bench', '.cache', 'tools-fixture.done');

export function ensureFixture() {
  if (existsSync(doneMarker)) return fixtureDir;
  rmSync(fixtureDir, { recursive: true, force: true });
  mkdirSync(fixtureDir, { recursive: true });
  console.error('building the fixture repository (once)…');
  for (const copy of ['a', 'b']) {
    cpSync(join(projectRoot, 'node_modules'), join(fixtureDir, copy), { recursive: true, dereference: false, verbatimSymlinks: true });
  }
  writeFileSync(join(fixtureDir, '.gitignore'), '*.log\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], { cwd: fixtureDir, stdio: ['ignore', 'ignore', 'inherit'] });
  git('init', '-q', '-b', 'main');
  git('add', '-A', '-f');
  git('commit', '-q', '-m', 'fixture');
  writeFileSync(doneMarker, new Date().toISOString());
  return fixtureDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureFixture());
