import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { RepoConfig } from '../../src/config/repo-config.js';
import { createScriptedModel, type ScriptStep } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import type { RunEvent } from '../../src/agent/events.js';
import { DEMO_REPO, git } from '../e2e/helpers.js';
import { tempDir } from '../kit/temp.js';

/** A committed temp repository: the demo without its config (or `files` alone), plus `extra` files. */
export function repoWith(opts: { demo?: boolean; files?: Record<string, string>; remove?: string[] } = {}): { dir: string; work: string } {
  const work = tempDir('proofpr-ready-');
  const dir = join(work, 'repo');
  if (opts.demo !== false) cpSync(DEMO_REPO, dir, { recursive: true });
  else mkdirSync(dir, { recursive: true });
  rmSync(join(dir, '.github'), { recursive: true, force: true });
  for (const r of opts.remove ?? []) rmSync(join(dir, r), { recursive: true, force: true });
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  return { dir, work };
}

/** A repository whose test needs a dependency that only `npm ci` puts in node_modules (a local file: package, no network). */
export function repoNeedingInstall(): { dir: string; work: string } {
  const r = repoWith({
    demo: false,
    files: {
      '.gitignore': 'node_modules/\n',
      'helper/package.json': JSON.stringify({ name: 'helper', version: '1.0.0', main: 'index.js' }),
      'helper/index.js': 'module.exports = (a, b) => a + b;\n',
      'package.json': JSON.stringify(
        { name: 'needs-install', version: '1.0.0', scripts: { test: 'node --test' }, devDependencies: { helper: 'file:helper' } },
        null,
        2,
      ),
      'test/add.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst add = require('helper');\ntest('adds', () => assert.strictEqual(add(1, 2), 3));\n",
    },
  });
  execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: r.dir,
    stdio: 'ignore',
  });
  rmSync(join(r.dir, 'node_modules'), { recursive: true, force: true });
  git(r.dir, ['add', '-A']);
  git(r.dir, ['commit', '-q', '-m', 'lock file']);
  return r;
}

export async function runOn(
  dir: string,
  work: string,
  steps: ScriptStep[],
  config: RepoConfig,
): Promise<{ res: RunTaskResult; events: RunEvent[]; model: ReturnType<typeof createScriptedModel> }> {
  const model = createScriptedModel(steps);
  const events: RunEvent[] = [];
  const res = await runTask({
    repoDir: dir,
    branch: 'proofpr/prompt-ready',
    task: { kind: 'prompt', title: 'median() is wrong', body: 'median([10, 9, 2]) returns 2, expected 9' },
    config,
    model,
    modelId: 'claude-sonnet-5-5',
    mode: 'fix',
    runId: `r${Date.now()}`,
    runDir: join(work, 'run'),
    worktreesDir: join(work, 'worktrees'),
    onEvent: (e) => events.push(e),
  });
  return { res, events, model };
}
