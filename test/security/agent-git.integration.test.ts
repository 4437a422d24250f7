/**
 * The agent's git holds only what it may see (issue 37). A repository whose tracked `config/.env.production`
 * holds an AWS key pair, changed in each of 2,100 commits, with another branch holding a private key
 * and a tag on an old version; a run's worktree of it, opened through the product's own exec with the
 * masks on, the way a run opens it. From a test script inside the sandbox (the command line never names
 * git, so no git pin applies: this is code the tests run), each reader below prints what it finds; none
 * may print a secret of any version, nor the base64 of the current file.
 *
 * The rule the readers were written by (before the mechanism was built): every way code can reach git
 * objects, one case each —
 *  (a) each switch, environment variable or config scope that changes which objects or refs git reads
 *      (replace-ref switches, GIT_DIR / GIT_OBJECT_DIRECTORY at any git dir the script can name);
 *  (b) every copy git can make of what it sees (local clone, bundle, mirror clone of the common dir, a
 *      repository borrowing objects through alternates);
 *  (c) every enumerating reader (log -p over every ref and reflog, cat-file over all objects, every
 *      version of the masked path by name, another branch by name);
 *  (d) no git at all: zlib by hand over every file under every git dir the script can find;
 *  (e) depth: 2,100 versions, more than any fixed list of replaced blobs.
 * First try, before the private git (replace refs + skip-worktree): see docs/benchmarks.md, "The agent's git".
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { maskedContent } from '../../src/secrets/placeholder.js';
import { AGENT_HISTORY } from '../../src/workspace/agent-git.js';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { snapshotCommit } from '../../src/workspace/snapshot-commit.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { tempDir } from '../kit/temp.js';
import { bareEnv } from '../workspace/git-fixtures.js';

const VERSIONS = 2100;
const hash = (s: string): string => createHash('sha256').update(s).digest('hex');
/** Version i's key id tail (after AKIA) and secret: random-looking, so a delta between two versions carries them whole. */
const keyTail = (i: number): string => hash(`id${i}`).toUpperCase().slice(0, 16);
const secret = (i: number): string =>
  Buffer.from(hash(`secret${i}`), 'hex')
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'Q')
    .slice(0, 40);
const envFile = (i: number): string => `AWS_ACCESS_KEY_ID=AKIA${keyTail(i)}\nAWS_SECRET_ACCESS_KEY=${secret(i)}\nREGION=eu-west-1\n`;
const PEM_LINE = Buffer.from(hash('pem-a') + hash('pem-b'), 'hex')
  .toString('base64')
  .slice(0, 64);
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_LINE}\n${Buffer.from(hash('pem-c'), 'hex').toString('base64')}\n-----END RSA PRIVATE KEY-----\n`;

/** A fast-import stream: 2,100 commits on main changing config/.env.production, a branch `other` with a key, a tag `v1` on commit 5. */
function history(): string {
  const parts: string[] = [];
  const data = (s: string): string => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 0; i < VERSIONS; i++) {
    parts.push(`commit refs/heads/main\nmark :${i + 1}\ncommitter Fixture <f@example.test> ${1_700_000_000 + i} +0000\n${data(`v${i}`)}`);
    if (i > 0) parts.push(`from :${i}\n`);
    if (i === 0)
      parts.push(`M 100644 inline README.md\n${data('# service\n')}M 100644 inline src/app.js\n${data('export const x = 1;\n')}`);
    parts.push(`M 100644 inline config/.env.production\n${data(envFile(i))}\n`);
  }
  parts.push(`commit refs/heads/other\ncommitter Fixture <f@example.test> 1800000000 +0000\n${data('other')}from :1000\n`);
  parts.push(`M 100644 inline secrets/other.env\n${data(PEM)}\n`);
  parts.push(`reset refs/tags/v1\nfrom :5\n\n`);
  return parts.join('');
}

/** The prelude every attack script starts with: the git dir the worktree's `.git` names, its common dir, the real one. */
const prelude = (realCommon: string): string => `
set +e
GITDIR=$(sed -n 's/^gitdir: //p' .git 2>/dev/null); [ -d .git ] && GITDIR=$PWD/.git
COMMON=$(cat "$GITDIR/commondir" 2>/dev/null); case "$COMMON" in /*) ;; '') COMMON=$GITDIR ;; *) COMMON=$GITDIR/$COMMON ;; esac
REAL_COMMON=${JSON.stringify(realCommon)}
T=$(mktemp -d)
`;

/** Readers that reach the agent's own objects: they must show the placeholder (the check is not vacuous). */
const SEES_PLACEHOLDER = new Set(['git log -p over every ref', 'zlib by hand over every file under every git dir found', 'a bundle clone']);

const ZLIB_READER = `
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const seen = new Set();
const roots = process.argv.slice(2);
const skip = new Set(['/proc', '/sys', '/dev', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc']);
function find(dir, depth) {
  if (depth > 12 || skip.has(dir)) return;
  let es; try { es = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of es) {
    if (!e.isDirectory() || e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    if (e.name === 'objects' || e.name === '.git' || e.name.endsWith('.git')) roots.push(p);
    find(p, depth + 1);
  }
}
find('/', 0);
function files(dir, out) {
  let es; try { es = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of es) { const p = path.join(dir, e.name); if (e.isDirectory()) files(p, out); else if (e.isFile()) out.push(p); }
}
for (const r of roots) {
  const all = []; files(r, all);
  for (const f of all) {
    if (seen.has(f)) continue; seen.add(f);
    let b; try { b = fs.readFileSync(f); } catch { continue; }
    if (b.length > 64 << 20) continue;
    for (let i = 0; i + 1 < b.length; i++) {
      if (b[i] !== 0x78 || ((b[i] << 8) | b[i + 1]) % 31 !== 0) continue;
      try { process.stdout.write(zlib.inflateSync(b.subarray(i)).toString('latin1') + '\\n'); } catch {}
    }
  }
}
`;

/** Each reader: a bash script run as a file inside the sandbox. */
const READERS: Array<[string, string]> = [
  ['git log -p over every ref', 'git log -p --all'],
  ['git --no-replace-objects', 'git --no-replace-objects log -p --all'],
  ['GIT_NO_REPLACE_OBJECTS', 'GIT_NO_REPLACE_OBJECTS=1 git log -p --all'],
  ['GIT_REPLACE_REF_BASE unset or moved', 'env -u GIT_REPLACE_REF_BASE git log -p --all; GIT_REPLACE_REF_BASE=refs/none/ git log -p --all'],
  ['-c core.useReplaceRefs=false', 'git -c core.useReplaceRefs=false log -p --all'],
  ['core.useReplaceRefs=false in the HOME gitconfig', 'git config --global core.useReplaceRefs false; git log -p --all'],
  ['GIT_CONFIG_COUNT', 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.useReplaceRefs GIT_CONFIG_VALUE_0=false git log -p --all'],
  ['GIT_CONFIG_GLOBAL', `printf '[core]\\n\\tuseReplaceRefs = false\\n' > $T/gc; GIT_CONFIG_GLOBAL=$T/gc git log -p --all`],
  [
    'cat-file --batch-all-objects',
    'git cat-file --batch-all-objects --batch; GIT_NO_REPLACE_OBJECTS=1 git cat-file --batch-all-objects --batch',
  ],
  [
    'every version of the masked path by name',
    'git rev-list --all | sed "s/$/:config\\/.env.production/" | GIT_NO_REPLACE_OBJECTS=1 git cat-file --batch; git rev-list --all | sed "s/$/:config\\/.env.production/" | git cat-file --batch',
  ],
  [
    'another branch and a tag by name',
    'git show other:secrets/other.env; git show v1:config/.env.production; git show main~2000:config/.env.production; git branch -a; git tag',
  ],
  ['reflogs and stash', 'git log -g -p --all; git stash list -p'],
  [
    'a repository borrowing objects through alternates',
    'git init -q $T/alt; for d in "$GITDIR/objects" "$COMMON/objects" "$REAL_COMMON/objects"; do echo "$d" >> $T/alt/.git/objects/info/alternates; done; git -C $T/alt cat-file --batch-all-objects --batch',
  ],
  [
    'a local clone (of the worktree and of the common dir)',
    'git clone -q --no-hardlinks "$PWD" $T/c1 && git -C $T/c1 log -p --all; git clone -q --mirror "$COMMON" $T/c2 && git -C $T/c2 log -p --all; git clone -q --mirror "$REAL_COMMON" $T/c3 && git -C $T/c3 log -p --all',
  ],
  ['a bundle clone', 'git bundle create $T/b.bundle --all && git clone -q $T/b.bundle $T/c4 && git -C $T/c4 log -p --all'],
  [
    'GIT_DIR or GIT_OBJECT_DIRECTORY at the common dir',
    'for d in "$COMMON" "$REAL_COMMON"; do GIT_DIR="$d" git log -p --all; GIT_DIR="$d" GIT_NO_REPLACE_OBJECTS=1 git cat-file --batch-all-objects --batch; done; GIT_OBJECT_DIRECTORY="$REAL_COMMON/objects" git cat-file --batch-all-objects --batch',
  ],
  ['zlib by hand over every file under every git dir found', 'node $ATTACK/zlib.js "$GITDIR" "$COMMON" "$REAL_COMMON"'],
];

const tails = new Set(Array.from({ length: VERSIONS }, (_, i) => keyTail(i)));
const secrets = new Set(Array.from({ length: VERSIONS }, (_, i) => secret(i)));

/** The secrets `text` holds: any version's key id tail or secret (whole), the other branch's key, the base64 of the current file. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i + 16 <= text.length; i++) {
    if (tails.has(text.slice(i, i + 16))) found.add(`key id AKIA${text.slice(i, i + 16)}`);
    if (i + 40 <= text.length && secrets.has(text.slice(i, i + 40))) found.add(`secret ${text.slice(i, i + 40)}`);
  }
  if (text.includes(PEM_LINE)) found.add('the other branch private key');
  if (text.includes(Buffer.from(envFile(VERSIONS - 1)).toString('base64'))) found.add('base64 of the current file');
  return [...found];
}

let bwrap: string | null = null;
let wt: Worktree | undefined;
let h: ExecHandle | undefined;
let attackDir = '';
/** A clean checkout of the base as the harness makes one for a test run (pristine-checkout.ts: `git worktree add --detach` in the exec's TMPDIR). */
let checkout = '';
let shared = '';
let realCommon = '';
const figures: Record<string, number> = {};

beforeAll(async () => {
  bwrap = await detectBwrap();
  if (!bwrap) process.stdout.write('agent git: skipped, bubblewrap cannot create namespaces on this machine\n');
  const src = tempDir('proofpr-agit-src-');
  const env = bareEnv();
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: src, env });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: src, env, input: history() });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: src, env });
  realCommon = join(src, '.git');
  const home = tempDir('proofpr-agit-home-');
  wt = await createWorktree({
    repoDir: src,
    baseRef: 'main',
    branch: 'proofpr/agent-git',
    worktreesDir: join(home, 'worktrees'),
    runId: 'r',
  });
  const runTmp = join(tempDir('proofpr-agit-run-'), 'run');
  h = await createExec({
    root: wt.path,
    runTmp,
    sandbox: 'auto',
    gitDir: wt.gitDir,
    // As a run hides them: PROOFPR_HOME (the worktrees' parent), the real home, the source checkout and its git dir.
    hidePaths: [home, homedir(), src, realCommon],
    protect: {},
    maxOutputBytes: 64 << 20,
  });
  attackDir = join(runTmp, 'tmp', 'attack');
  mkdirSync(attackDir, { recursive: true });
  writeFileSync(join(attackDir, 'zlib.js'), ZLIB_READER);
  checkout = join(runTmp, 'tmp', 'proofpr-pristine-x', 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', checkout, 'HEAD'], { cwd: wt.path, env: { ...env, GIT_DIR: wt.gitDir } });
  // doctor's dry run checks out a clone sharing the repository's objects instead (pristine-checkout.ts, standalone).
  shared = join(runTmp, 'tmp', 'proofpr-pristine-y', 'tree');
  execFileSync('git', ['clone', '--shared', '--no-checkout', '--quiet', '--', wt.gitDir, shared], { env });
  execFileSync('git', ['checkout', '--detach', '--quiet', 'HEAD'], { cwd: shared, env });
}, 300_000);

afterAll(async () => {
  await h?.dispose();
  await wt?.remove().catch(() => undefined);
  if (Object.keys(figures).length) process.stdout.write(`agent git: ${JSON.stringify(figures)}\n`);
});

describe('the agent git holds only what it may see', () => {
  it('agent git - the fixture is not vacuous: config/.env.production is masked, and the readers find every secret outside the sandbox', () => {
    if (!bwrap || !wt || !h) return;
    expect(h.masked).toContain('config/.env.production');
    expect(readFileSync(join(wt.path, 'config/.env.production'), 'utf8')).toBe(envFile(VERSIONS - 1));
    const out = execFileSync('bash', ['-c', `${prelude(realCommon)}\ngit log -p --all`], {
      cwd: wt.path,
      env: bareEnv(),
      encoding: 'latin1',
      maxBuffer: 256 << 20,
    });
    const found = leaks(out);
    expect(found.filter((f) => f.startsWith('secret')).length).toBe(VERSIONS);
    expect(found).toContain('the other branch private key');
  });

  const where = (w: string): string => (w === 'worktree' ? (wt?.path ?? '') : w === 'harness checkout' ? checkout : shared);
  it.each(
    READERS.flatMap(([name, body]) => [
      ['worktree', name, body] as const,
      ['harness checkout', name, body] as const,
      ['shared clone', name, body] as const,
    ]),
  )(
    'agent git - from the %s, %s prints no secret from inside the sandbox',
    async (at, name, body) => {
      if (!bwrap || !wt || !h) return;
      const file = join(attackDir, `${at}-${name}.sh`.replace(/[^a-z0-9.]+/gi, '-'));
      writeFileSync(file, `${prelude(realCommon)}\nATTACK=${JSON.stringify(attackDir)}\n${body}\n`);
      // `bash <file>`: the command line never names git, so no pin applies (code run by the tests).
      // From the harness checkout: as a harness test run (its own fresh home).
      const r = await h.exec({
        command: `bash ${JSON.stringify(file)} 2>&1`,
        cwd: where(at),
        timeoutMs: 240_000,
        ...(at === 'worktree' ? {} : { home: 'fresh' as const }),
      });
      expect(r.truncated).toBe(false);
      const found = leaks(r.output);
      figures[`${at}: ${name}`] = found.length;
      if (SEES_PLACEHOLDER.has(name)) expect(r.output).toContain(maskedContent('config/.env.production'));
      expect({ reader: name, leaked: found.slice(0, 5), count: found.length }).toEqual({ reader: name, leaked: [], count: 0 });
    },
    300_000,
  );

  it('agent git - git in the sandbox works on the sanitized base: status clean, recent history, the placeholder committed, stash and restore', async () => {
    if (!bwrap || !wt || !h) return;
    const r = await h.exec({
      command: [
        'git status --porcelain=v1 --untracked-files=all && echo STATUS-DONE',
        'echo "commits $(git log --oneline | wc -l)"',
        'git ls-files',
        'git show HEAD:config/.env.production',
        'echo changed >> README.md && git stash -q && git stash pop -q && git restore README.md && echo changed >> README.md && git checkout -- README.md && git status --porcelain && echo RESTORED',
      ].join(' && '),
      cwd: wt.path,
      timeoutMs: 120_000,
    });
    const [status, rest] = r.output.split('STATUS-DONE');
    expect({ status: status?.trim(), exit: r.exitCode }).toEqual({ status: '', exit: 0 });
    expect(rest).toContain(`commits ${AGENT_HISTORY}`);
    expect(rest).toMatch(/README\.md\n(.*\n)*config\/\.env\.production\n(.*\n)*src\/app\.js/);
    expect(rest).toContain(maskedContent('config/.env.production'));
    expect(rest?.trimEnd().endsWith('RESTORED')).toBe(true);
  }, 180_000);

  it('agent git - a test run in the harness checkout has a git: the sanitized base, read-only', async () => {
    if (!bwrap || !wt || !h) return;
    const file = join(attackDir, 'checkout-git.sh');
    writeFileSync(
      file,
      'echo "commits $(git log --oneline | wc -l)"; git show HEAD:config/.env.production; git -c user.name=a -c user.email=a@b.c commit --allow-empty -qm x 2>&1 | head -1\n',
    );
    // A script file: the command line never names git, so git finds the checkout's own .git (no pin).
    const r = await h.exec({
      command: `bash ${JSON.stringify(file)}`,
      cwd: checkout,
      timeoutMs: 60_000,
      home: 'fresh',
    });
    expect(r.output).toContain(`commits ${AGENT_HISTORY}`);
    expect(r.output).toContain(maskedContent('config/.env.production'));
    expect(r.output).toMatch(/Read-only file system|unable to|fatal/i);
  }, 120_000);

  it('agent git - the harness commits from the real git dir: the masked path keeps its real blob, the agent commit in its own git changes nothing real', async () => {
    if (!bwrap || !wt || !h) return;
    const realGit = (...args: string[]): string =>
      execFileSync('git', args, { cwd: wt?.path, env: { ...bareEnv(), GIT_DIR: wt?.gitDir ?? '' }, encoding: 'utf8' });
    const realHead = realGit('rev-parse', 'HEAD');
    const r = await h.exec({
      command:
        '(mv config moved 2>/dev/null && echo MOVED || echo PINNED) && (rm -rf config 2>/dev/null; true) && ' +
        'echo "export const x = 2;" > src/app.js && git add -A && git -c user.name=a -c user.email=a@b.c commit -qm agent && git log --oneline -1',
      cwd: wt.path,
      timeoutMs: 60_000,
    });
    expect(r.exitCode).toBe(0);
    // The folder of a masked file is a mount point: it cannot be renamed (the real file would follow it on the host).
    expect(r.output).toContain('PINNED');
    const snap = await snapshotCommit({
      worktree: wt.path,
      message: 'work',
      identity: { name: 'bot', email: 'bot@example.test' },
      gitDir: wt.gitDir,
    });
    const show = (rev: string): string => realGit('show', rev);
    expect(snap.changed).toBe(true);
    expect(show(`${snap.sha}:config/.env.production`)).toBe(envFile(VERSIONS - 1));
    expect(show(`${snap.sha}:src/app.js`)).toBe('export const x = 2;\n');
    expect(realGit('ls-tree', '-r', '--name-only', snap.sha)).toBe('README.md\nconfig/.env.production\nsrc/app.js\n');
    expect(realGit('rev-parse', 'HEAD')).toBe(realHead);
  }, 120_000);
});
