// Time to make the agent's private git (src/workspace/agent-git.ts): first build (no cached store) and
// cached, for a repository given by path (its HEAD), or for a made one with 2,100 commits each changing a
// masked AWS key pair (no argument). Needs `npx tsc -p tsconfig.build.json` (or any integration test run) first:
//   node bench/agent-git/measure.mjs [repo] [masked path]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAgentGit } from '../../build/workspace/agent-git.js';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const sh = (cwd, args, input) => execFileSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
const tmp = mkdtempSync(join(tmpdir(), 'proofpr-bench-agit-'));

function made() {
  const dir = join(tmp, 'made');
  sh(tmp, ['init', '-q', '-b', 'main', dir]);
  const parts = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 0; i < 2100; i++) {
    const id = `AKIA${String(i).padStart(16, '7')}`;
    const key = `${String(i).padStart(8, '0')}abcdefghijKLMNOPQRSTuvwxyz012345`;
    parts.push(`commit refs/heads/main\ncommitter F <f@e.t> ${1_700_000_000 + i} +0000\n${data(`v${i}`)}`);
    if (i === 0) parts.push(`M 100644 inline README.md\n${data('# x\n')}`);
    parts.push(`M 100644 inline config/prod.env\n${data(`AWS_ACCESS_KEY_ID=${id}\nAWS_SECRET_ACCESS_KEY=${key}\n`)}\n`);
  }
  sh(dir, ['fast-import', '--quiet'], parts.join(''));
  return dir;
}

const repo = process.argv[2] ?? made();
const masked = process.argv[3] ?? (process.argv[2] ? undefined : 'config/prod.env');
const clone = join(tmp, 'clone');
sh(tmp, ['clone', '-q', '--no-checkout', repo, clone]);
const root = join(tmp, 'wt');
sh(clone, ['worktree', 'add', '-q', '--detach', root, 'HEAD']);
const gitDir = sh(root, ['rev-parse', '--absolute-git-dir']);
const commonDir = join(clone, '.git');
const commits = sh(root, ['rev-list', '--count', 'HEAD']);
const cacheDir = join(tmp, 'cache');
const input = { root, gitDir, commonDir, masked: masked ? [masked] : [], cacheDir };
const out = {};
for (const run of ['first', 'cached']) {
  const t = process.hrtime.bigint();
  await makeAgentGit({ ...input, runTmp: join(tmp, `run-${run}`) });
  out[run] = `${Number((process.hrtime.bigint() - t) / 1_000_000n)} ms`;
}
const size = execFileSync('du', ['-sh', cacheDir], { encoding: 'utf8' }).split('\t')[0];
console.log(JSON.stringify({ repo: process.argv[2] ?? '2,100 made commits', commits, masked: masked ?? null, ...out, store: size }));
rmSync(tmp, { recursive: true, force: true });
