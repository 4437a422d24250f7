#!/usr/bin/env node
// Shipped code on real fixes (bench/shipped/README.md states the rule): classifies the upstream change of
// every bench/real case, and of the 2 most recent test+code commits of each of their repositories, with
// the built product's classifyCommits, and scores it against the upstream diff's own test/source split.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const key = opt('--key', 'latest');
const sample = opt('--sample', 'all');
const only = args.filter((a, i) => !a.startsWith('--') && !['--key', '--sample'].includes(args[i - 1] ?? ''));

const CODE = /\.(?:[cm]?[jt]sx?|py|pyi|pyx|pxd|go|rs|c|h|cc|cpp|hpp|s|S)$/;
const FIX_KINDS = new Set(['shipped', 'mixed']);

const git = (cwd, argv) =>
  execFileSync('git', ['-c', 'core.quotePath=false', ...argv], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

/** bench/real's conventions for a local mirror of owner/name. */
function mirrorOf(repo) {
  const base = process.env.PROOFPR_BENCH_REAL_SOURCES;
  if (!base) throw new Error('PROOFPR_BENCH_REAL_SOURCES: set it to a folder holding one git repository per project (<owner>+<name>)');
  const [owner, name] = repo.split('/');
  const dirs = [
    join(base, `${owner}+${name}`, 'repo'),
    join(base, `${owner}+${name}`),
    join(base, owner, name),
    join(base, `${name}.git`),
    join(base, name),
  ];
  const d = dirs.find((x) => existsSync(x));
  if (!d) throw new Error(`PROOFPR_BENCH_REAL_SOURCES: no mirror of ${repo} (looked for ${owner}+${name})`);
  return d;
}

/** `*` within a segment, `**` any number of segments (bench/real/manifest.ts's globToRegExp). */
function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function loadCases() {
  const dir = join(root, 'bench', 'real');
  const cases = [];
  for (const f of ['cases.json', 'cases-nonjs.json']) cases.push(...JSON.parse(readFileSync(join(dir, f), 'utf8')).cases);
  return cases;
}

function changed(cwd, from, to) {
  const parts = git(cwd, ['diff', '--name-status', '--no-renames', '-z', from, to]).split('\0');
  const out = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ status: parts[i].charAt(0), path: parts[i + 1] });
  return out;
}

/** Scores one change: the classifier's kinds against the upstream split. */
function score(view, paths, testRes) {
  const kind = new Map(view.changes.map((c) => [c.path, c.kind]));
  const isTestPart = (p) => testRes.some((r) => r.test(p));
  const row = {
    sourceCode: 0,
    sourceCodeShipped: 0,
    testFiles: 0,
    testShipped: 0,
    disagreements: [],
    shippedCode: [],
    nonCode: [],
    missing: [],
  };
  for (const { path, status } of paths) {
    const k = kind.get(path);
    if (k === undefined) {
      row.missing.push(path);
      continue;
    }
    if (isTestPart(path)) {
      row.testFiles++;
      if (FIX_KINDS.has(k)) {
        row.testShipped++;
        row.disagreements.push({ part: 'test', path, status, kind: k });
      }
    } else if (CODE.test(path)) {
      row.sourceCode++;
      if (FIX_KINDS.has(k)) {
        row.sourceCodeShipped++;
        row.shippedCode.push(path);
      } else row.disagreements.push({ part: 'source', path, status, kind: k });
    } else row.nonCode.push({ path, status, kind: k });
  }
  row.extra = view.changes.map((c) => c.path).filter((p) => !paths.some((x) => x.path === p));
  row.basis = view.basis;
  return row;
}

/** A shared clone of the mirror (objects borrowed, nothing written to it), checked out at `sha`. */
function cloneAt(mirror, sha, dir) {
  if (!existsSync(join(dir, '.git'))) git(tmpdir(), ['clone', '-q', '--shared', '--no-checkout', mirror, dir]);
  git(dir, ['checkout', '-q', '-f', '--detach', sha]);
  git(dir, ['clean', '-qfdx']);
}

/** The recent sample: per repository, the 2 newest non-merge commits changing a test file and a non-test code file. */
function recentCommits(mirror, testRes, exclude) {
  const shas = git(mirror, ['rev-list', '--no-merges', '--date-order', 'HEAD']).split('\n').filter(Boolean);
  const out = [];
  for (const sha of shas) {
    if (out.length === 2) break;
    if (exclude.has(sha)) continue;
    const parent = git(mirror, ['rev-list', '--parents', '-n', '1', sha]).trim().split(' ')[1];
    if (!parent) continue; // a root commit
    const paths = changed(mirror, parent, sha);
    const test = paths.some((p) => testRes.some((r) => r.test(p.path)));
    const code = paths.some((p) => !testRes.some((r) => r.test(p.path)) && CODE.test(p.path));
    if (test && code) out.push({ sha, parent, subject: git(mirror, ['log', '-1', '--format=%s', sha]).trim() });
  }
  return out;
}

function totals(rows) {
  const sum = (f) => rows.reduce((n, r) => n + (r[f] ?? 0), 0);
  return {
    cases: rows.length,
    sourceCodeShipped: sum('sourceCodeShipped'),
    sourceCode: sum('sourceCode'),
    testShipped: sum('testShipped'),
    testFiles: sum('testFiles'),
    noDisagreement: rows.filter((r) => !r.error && r.disagreements.length === 0).length,
    errors: rows.filter((r) => r.error).length,
  };
}

function print(label, rows) {
  console.log(`\n## ${label}`);
  for (const r of rows) {
    if (r.error) {
      console.log(`${r.id}: ERROR ${r.error}`);
      continue;
    }
    const mark = r.disagreements.length ? 'DISAGREE' : 'ok';
    console.log(
      `${r.id}: ${mark} source code ${r.sourceCodeShipped}/${r.sourceCode} shipped; test ${r.testShipped}/${r.testFiles} shipped`,
    );
    for (const d of r.disagreements) console.log(`    ${d.part} ${d.status} ${d.path}: ${d.kind}`);
    for (const n of r.nonCode) console.log(`    (non-code ${n.status} ${n.path}: ${n.kind})`);
    if (r.missing.length || r.extra.length)
      console.log(`    (paths not classified: ${r.missing.join(', ')}; classified, not in the diff: ${r.extra.join(', ')})`);
  }
  const t = totals(rows);
  console.log(
    `${label}: source code files called shipped ${t.sourceCodeShipped}/${t.sourceCode}; test files called shipped ${t.testShipped}/${t.testFiles}; cases with no disagreement ${t.noDisagreement}/${t.cases}${t.errors ? `; errors ${t.errors}` : ''}`,
  );
  return t;
}

async function main() {
  if (!args.includes('--no-build')) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) process.exit(b.status ?? 1);
  }
  const { classifyCommits } = await import(pathToFileURL(join(root, 'build', 'agent', 'verification', 'shipped', 'classify.js')).href);
  const cases = loadCases().filter((c) => only.length === 0 || only.some((o) => c.id.startsWith(o) || c.repo === o));
  const work = mkdtempSync(join(tmpdir(), 'proofpr-bench-shipped-'));
  const classify = async (repo, id, parent, fix, globs, extra = {}) => {
    const mirror = mirrorOf(repo);
    const dir = join(work, repo.replace('/', '+'));
    const testRes = globs.map(globToRegExp);
    try {
      cloneAt(mirror, fix, dir);
      const view = await classifyCommits({ root: dir }, parent, fix);
      return { id, repo, parent, fix, ...extra, ...score(view, changed(dir, parent, fix), testRes) };
    } catch (e) {
      return { id, repo, parent, fix, ...extra, error: String(e?.message ?? e).split('\n')[0] };
    }
  };
  const out = {};
  try {
    if (sample === 'all' || sample === 'curated') {
      const rows = [];
      for (const c of cases) rows.push(await classify(c.repo, c.id, c.parent, c.fix, c.tests));
      out.curated = { totals: print('curated (bench/real cases)', rows), rows };
    }
    if (sample === 'all' || sample === 'recent') {
      const repos = [...new Set(cases.map((c) => c.repo))];
      const exclude = new Set(loadCases().map((c) => c.fix));
      const rows = [];
      for (const repo of repos) {
        const globs = [...new Set(cases.filter((c) => c.repo === repo).flatMap((c) => c.tests))];
        const mirror = mirrorOf(repo);
        const picked = recentCommits(mirror, globs.map(globToRegExp), exclude);
        if (picked.length < 2) console.log(`${repo}: only ${picked.length} commit(s) match the rule`);
        for (const p of picked)
          rows.push(
            await classify(repo, `${repo.split('/')[1]}-${p.sha.slice(0, 7)}`, p.parent, p.sha, globs, {
              subject: p.subject,
              tests: globs,
            }),
          );
      }
      out.recent = { totals: print('recent (2 newest test+code commits per repository)', rows), rows };
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const file = join(root, 'bench', 'results', 'shipped.json');
  const prev = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const product = git(root, ['rev-parse', 'HEAD']).trim();
  const dirty =
    git(root, ['status', '--porcelain', '--', 'src/agent/verification/shipped', 'src/agent/verification/changes']).trim() !== '';
  // The last commit that changed the classifier: the figure belongs to it, whatever else HEAD holds.
  const classifier = git(root, ['log', '-1', '--format=%H', '--', 'src/agent/verification/shipped']).trim();
  const entry = { product, classifier, srcDirty: dirty, date: new Date().toISOString(), only: only.length ? only : undefined, ...out };
  writeFileSync(file, `${JSON.stringify({ ...prev, [key]: entry }, null, 2)}\n`);
  console.log(`\nwrote ${file} (key ${key})`);
}

await main();
