import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { prepareWorkspace, type Workspace } from '../../src/run/prepare-workspace.js';
import { openSandbox } from '../../src/run/open-sandbox.js';
import type { RunTaskInput } from '../../src/run/run-task-types.js';
import type { ExecHandle } from '../../src/workspace/exec.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { wipCommit } from '../../src/workspace/publish.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { harnessTestRun } from '../../src/agent/verification/test-runs/harness-run.js';
import { withPristineCheckout } from '../../src/agent/verification/test-runs/pristine-checkout.js';
import type { ToolContext } from '../../src/tools/define-tool.js';
import { call, git as sh, toolContext } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { tempDir } from '../kit/temp.js';
import { maskedContent } from '../../src/secrets/placeholder.js';

/*
 * The agent's world is the commit (issue 23): a real run's worktree and sandbox, made by the run's own
 * steps (prepareWorkspace, openSandbox) from a checkout that holds what a developer's checkout holds:
 * an ignored .env, secrets written after the worktree was made, tracked files that look like secrets.
 */

const CANARY = 'CANARY_IGNORED_ENV_7f3a';
const LATE = 'CANARY_APPEARED_LATER_91bc';
const TRACKED = 'CANARY_TRACKED_KEY_55d0';
const SA = 'CANARY_SERVICE_ACCOUNT_2e11';

let checkout: string;
let bwrap: string | null;
const open: Array<{ ws: Workspace; h: ExecHandle }> = [];

const write = (root: string, rel: string, text: string): void => writeFiles(root, { [rel]: text });

function input(runId: string, config: string): RunTaskInput {
  return {
    repoDir: checkout,
    branch: `proofpr/${runId}`,
    task: { kind: 'prompt', title: 't', body: 'b' },
    config: parseRepoConfig(config),
    model: {} as RunTaskInput['model'],
    modelId: 'm',
    mode: 'fix',
    runId,
    runDir: join(checkout, '.proofpr', 'runs', runId),
    worktreesDir: join(checkout, '.proofpr', 'worktrees'),
  };
}

async function start(runId: string, config = 'sandbox: required\n'): Promise<{ ws: Workspace; h: ExecHandle; ctx: ToolContext }> {
  const i = input(runId, config);
  mkdirSync(i.runDir, { recursive: true });
  const ws = await prepareWorkspace(i);
  const h = await openSandbox(i, ws);
  open.push({ ws, h });
  return { ws, h, ctx: toolContext(ws.wt.path, i.runDir, h.exec) };
}

const run = (h: ExecHandle, ws: Workspace, command: string, home?: 'fresh') =>
  h.exec({ command, cwd: ws.wt.path, timeoutMs: 20_000, ...(home ? { home } : {}) });

beforeAll(async () => {
  bwrap = await detectBwrap();
  checkout = join(tempDir('proofpr-world-'), 'checkout');
  mkdirSync(checkout);
  sh(checkout, 'init', '-q', '-b', 'main');
  write(checkout, '.gitignore', '.env\n.dev.vars\n.proofpr/\n*.local\n');
  write(checkout, 'src/a.js', 'module.exports = 1;\n');
  write(checkout, 'config/master.key', `${TRACKED}\n`);
  write(checkout, 'config/gcp.json', `{"type": "service_account", "private_key": "${SA}"}\n`);
  write(checkout, 'config/app.json', '{"name": "app"}\n');
  write(
    checkout,
    'read-secrets.js',
    [
      "const fs = require('fs');",
      `for (const p of process.argv.slice(2)) { try { process.stdout.write(p + '=' + fs.readFileSync(p, 'utf8') + '\\n'); } catch (e) { process.stdout.write(p + ':' + e.code + '\\n'); } }`,
      '',
    ].join('\n'),
  );
  sh(checkout, 'add', '-A');
  sh(checkout, 'commit', '-qm', 'base');
  write(checkout, '.env', `API_KEY=${CANARY}\n`);
});

afterAll(async () => {
  for (const o of open) {
    await o.h.dispose();
    await o.ws.cleanup(false);
  }
});

describe('the agent sees the commit, not the checkout', () => {
  it('world - an ignored secret of the checkout, and one written after the worktree was made, are absent for Read, Grep, Glob', async () => {
    const { ctx } = await start('r1');
    write(checkout, '.dev.vars', `TOKEN=${LATE}\n`);
    expect(existsSync(join(ctx.root, '.env'))).toBe(false);
    const env = await call(ctx, 'Read', { file_path: '.env' });
    expect(env.isError).toBe(true);
    expect(env.forModel).not.toContain(CANARY);
    expect(await call(ctx, 'Read', { file_path: join(checkout, '.env') })).toMatchObject({ isError: true, errorKind: 'denied' });
    for (const args of [
      { pattern: 'CANARY', output_mode: 'content' },
      { pattern: 'CANARY', glob: '.env*', output_mode: 'content' },
      { pattern: 'CANARY', glob: '**/*', output_mode: 'files_with_matches' },
    ]) {
      const g = await call(ctx, 'Grep', args);
      expect(g.forModel).not.toMatch(/CANARY|\.env|master\.key|gcp\.json/);
    }
    for (const pattern of ['**/.env*', '.dev.vars']) expect((await call(ctx, 'Glob', { pattern })).forModel).toMatch(/^No files matched/);
    expect((await call(ctx, 'Glob', { pattern: '**/*' })).forModel).not.toMatch(/\.env|\.dev\.vars|master\.key|gcp\.json/);
    expect((await call(ctx, 'Glob', { pattern: 'config/*' })).forModel).toBe('config/app.json');
  });

  it('world - a tracked secret-looking file (by path, by content) is hidden from Read and masked in the sandbox', async () => {
    const { ctx, ws, h } = await start('r2');
    const r = await call(ctx, 'Read', { file_path: 'config/master.key' });
    expect(r).toMatchObject({ isError: true, errorKind: 'denied' });
    expect(r.forModel).toContain('permissions.readable');
    expect((await call(ctx, 'Read', { file_path: 'config/gcp.json' })).isError).toBe(true);
    expect((await call(ctx, 'Read', { file_path: 'config/app.json' })).isError).toBe(false);
    if (!bwrap) return;
    const c = await run(h, ws, 'cat config/master.key config/gcp.json; echo done');
    expect(c.stdout).toBe(`${maskedContent('config/master.key')}${maskedContent('config/gcp.json')}done\n`);
  });

  it('world - `cat` and a script run as the test command cannot reach the checkout (sandbox)', async () => {
    if (!bwrap) return;
    const { ws, h } = await start('r3');
    write(checkout, 'late.local', `X=${LATE}\n`);
    const direct = await run(h, ws, `cat ${checkout}/.env; cat ../../../.env; cat ${checkout}/late.local; ls -a ${checkout}`);
    expect(direct.output).not.toMatch(/CANARY/);
    expect(direct.stdout).not.toMatch(/src|read-secrets|late\.local/);
    const paths = [join(checkout, '.env'), join(checkout, 'late.local'), join(checkout, '.dev.vars'), 'config/master.key'];
    const t = await run(h, ws, `node read-secrets.js ${paths.join(' ')}`);
    expect(t.exitCode).toBe(0);
    expect(t.output).not.toMatch(/CANARY/);
    expect(t.stdout).toContain(`${join(checkout, '.env')}:ENOENT`);
    expect(t.stdout).toContain(`config/master.key=${maskedContent('config/master.key')}\n`);
  });

  it('world - `git diff` in the sandbox shows a change; masked files are not in it (no external diff, no committed content)', async () => {
    if (!bwrap) return;
    const { ws, h } = await start('r10');
    const d = await run(h, ws, 'echo "module.exports = 3;" > src/a.js; git diff; git diff HEAD --stat; git status --porcelain');
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toContain('+module.exports = 3;');
    expect(d.output).not.toMatch(/CANARY|external diff|master\.key|gcp\.json/);
  });

  it('world - in the sandbox, git prints no committed blob of a masked file (log -p, show, cat-file by id, archive)', async () => {
    if (!bwrap) return;
    const { ws, h } = await start('r11');
    const blob = sh(checkout, 'rev-parse', 'HEAD:config/master.key').trim();
    const g = await run(
      h,
      ws,
      `git log -p; git show HEAD; git cat-file -p ${blob}; git archive HEAD | tar -xO config/master.key; echo end`,
    );
    expect(g.stdout).toContain('end');
    expect(g.stdout).toContain('config/app.json');
    expect(g.output).not.toMatch(/CANARY/);
    // The harness's own git still reads the real object.
    expect(sh(ws.wt.path, 'cat-file', '-p', blob)).toContain(TRACKED);
  });

  it('world - permissions.readable opens a secret-looking path in the tools and the sandbox', async () => {
    const { ctx, ws, h } = await start('r4', 'sandbox: required\npermissions:\n  readable: ["config/master.key"]\n');
    expect((await call(ctx, 'Read', { file_path: 'config/master.key' })).forModel).toContain(TRACKED);
    expect((await call(ctx, 'Read', { file_path: 'config/gcp.json' })).isError).toBe(true);
    if (!bwrap) return;
    expect((await run(h, ws, 'cat config/master.key')).stdout).toContain(TRACKED);
  });
});

describe("the harness's own test runs see the agent's world", () => {
  /** The final run as the verifier starts it: a clean checkout of HEAD, test.command through the run's exec, output to a file. */
  async function finalRun(ws: Workspace, h: ExecHandle, command: string): Promise<{ output: string; file: string }> {
    const file = join(ws.runTmp, 'final.txt');
    const { run: r } = await withPristineCheckout(
      { root: ws.wt.path, gitDir: ws.wt.gitDir, sha: 'HEAD', scratchDir: join(ws.runTmp, 'tmp') },
      (dir) =>
        harnessTestRun({
          cwd: dir,
          command,
          config: parseRepoConfig(''),
          exec: h.exec,
          scratchDir: join(ws.runTmp, 'tmp'),
          kind: 'final',
          treeHash: '',
          outputFile: file,
        }),
    );
    return { output: readFileSync(r.outputPath ?? file, 'utf8'), file };
  }

  it('world - a test the final run executes in its clean checkout reads tracked secret-looking files masked, as in the sandbox', async () => {
    const { ws, h } = await start('r8', 'sandbox: auto\n');
    const { output } = await finalRun(
      ws,
      h,
      'cat config/master.key config/gcp.json; node read-secrets.js config/master.key config/app.json',
    );
    expect(output).not.toMatch(/CANARY/);
    expect(output).toContain(`config/master.key=${maskedContent('config/master.key')}\n`);
    expect(output).toContain('config/app.json={"name": "app"}');
    // The agent's own worktree is never masked on disk.
    expect(readFileSync(join(ws.wt.path, 'config', 'master.key'), 'utf8')).toContain(TRACKED);
  });

  it('world - permissions.readable opens the path in the final run too; the rest stays masked', async () => {
    // Runs that masked config/master.key taught the process's redactor its value (every artifact of every
    // run is redacted of it): they end first, as their clean-up forgets it.
    for (const o of open.splice(0)) {
      await o.h.dispose();
      await o.ws.cleanup(false);
    }
    const { ws, h } = await start('r9', 'sandbox: auto\npermissions:\n  readable: ["config/master.key"]\n');
    const { output } = await finalRun(ws, h, 'cat config/master.key config/gcp.json');
    expect(output).toContain(TRACKED);
    expect(output).not.toContain(SA);
  });
});

describe('fresh homes and control folders', () => {
  it('world - a harness run gets a fresh home with what setup left, never what the agent wrote into its home', async () => {
    const { ws, h } = await start('r5', 'sandbox: auto\nsetup:\n  command: "echo made-by-setup > ~/setup.txt"\n');
    await run(h, ws, `printf 'script-shell=/bin/evil\\n' > ~/.npmrc; printf '[core]\\n\\tfsmonitor = evil\\n' > ~/.gitconfig`);
    expect((await run(h, ws, 'ls -a ~')).stdout).toContain('.npmrc');
    const fresh = await run(h, ws, 'ls -a ~; cat ~/setup.txt; echo "home=$HOME"', 'fresh');
    expect(fresh.stdout).toContain('made-by-setup');
    expect(fresh.stdout).not.toMatch(/\.npmrc|\.gitconfig/);
    const again = await run(h, ws, 'ls -a ~', 'fresh');
    expect(again.stdout).not.toMatch(/\.npmrc|\.gitconfig/);
    // The harness's own test run (final, baseline, differential) asks for that home.
    const final = await harnessTestRun({
      cwd: ws.wt.path,
      command: 'ls -a ~; cat ~/setup.txt; git config --global --get core.fsmonitor; node --test read-secrets.js',
      config: parseRepoConfig(''),
      exec: h.exec,
      scratchDir: join(ws.runTmp, 'tmp'),
      kind: 'final',
      treeHash: '',
    });
    expect(final.output).toContain('made-by-setup');
    expect(final.output).not.toMatch(/\.npmrc|\.gitconfig|evil/);
  });

  it('world - a hook folder that did not exist is walled: mkdir/printf and tar -x cannot plant .husky/pre-commit', async () => {
    if (!bwrap) return;
    const { ws, h } = await start('r6');
    const tarball = join(ws.runTmp, 'tmp', 'h.tar');
    const src = join(ws.runTmp, 'tmp', 'pack');
    write(src, '.husky/pre-commit', '#!/bin/sh\ncurl evil\n');
    execFileSync('tar', ['-cf', tarball, '-C', src, '.husky']);
    await run(h, ws, `mkdir -p .husky; printf x > .husky/pre-commit; tar -xf ${tarball}; mkdir -p .githooks/x`);
    expect(existsSync(join(ws.wt.path, '.husky', 'pre-commit'))).toBe(false);
    expect(existsSync(join(ws.wt.path, '.githooks', 'x'))).toBe(false);
    expect(sh(ws.wt.path, 'status', '--porcelain')).toBe('');
    // A harness step's `git clean -fd` removes the empty walled folder; the next command still runs, still walled.
    execFileSync('git', ['clean', '-fdq'], { cwd: ws.wt.path, env: { ...process.env, GIT_DIR: ws.wt.gitDir, GIT_WORK_TREE: ws.wt.path } });
    expect(existsSync(join(ws.wt.path, '.husky'))).toBe(false);
    const after = await run(h, ws, 'echo ok; mkdir -p .husky && printf x > .husky/pre-commit');
    expect(after.stdout).toContain('ok');
    expect(existsSync(join(ws.wt.path, '.husky', 'pre-commit'))).toBe(false);
  });

  it('world - the WIP commit leaves a protected file out, keeps the rest, and stores no blob of an ignored secret', async () => {
    const { ws } = await start('r7', 'sandbox: off\n');
    write(ws.wt.path, '.husky/pre-commit', '#!/bin/sh\nevil\n');
    write(ws.wt.path, 'src/b.js', 'module.exports = 2;\n');
    write(ws.wt.path, '.env', `K=${CANARY}\n`);
    write(ws.wt.path, 'notes.local', `K=${LATE}\n`);
    await treeHash(ws.wt.path, { gitDir: ws.wt.gitDir });
    const c = await wipCommit({
      worktree: ws.wt.path,
      message: 'm',
      identity: { name: 'proofpr', email: 'bot@example.com' },
      gitDir: ws.wt.gitDir,
      protect: {},
    });
    if (!('sha' in c)) throw new Error('no commit');
    expect(c.leftOut?.map((l) => l.path)).toEqual(['.husky/pre-commit']);
    expect(c.leftOut?.[0]?.why).toContain('protected path');
    const files = sh(checkout, 'ls-tree', '-r', '--name-only', c.sha).split('\n');
    expect(files).toContain('src/b.js');
    expect(files).not.toContain('.husky/pre-commit');
    expect(readFileSync(join(ws.wt.path, '.husky/pre-commit'), 'utf8')).toContain('evil');
    const all = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: checkout }).toString('utf8');
    expect(all).not.toContain(CANARY);
    expect(all).not.toContain(LATE);
    expect(all).not.toContain('evil');
  });
});
