import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Evidence } from '../../../src/agent/evidence/types.js';
import { createScriptedModel } from '../../../src/model/scripted.js';
import { runTask } from '../../../src/run/run-task.js';
import { configFor, materialize, scriptFor, type CorpusCase } from '../trap-corpus/index.js';

/**
 * The interpreter the sandbox can run: the home folder is hidden there, so a python3 that is a shim under
 * it (pyenv) fails; the system python3 with pytest is what CI installs.
 */
function python(): string {
  const sys = '/usr/bin/python3';
  return existsSync(sys) && spawnSync(sys, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0 ? sys : 'python3';
}
const PY = python();

/** Plays one corpus case through the product (runTask, scripted model that makes the case's edits) and returns its evidence. */
export async function play(c: CorpusCase): Promise<Evidence> {
  const m = materialize(c, 'base', { root: process.cwd() });
  const command = c.lang === 'py' ? c.command.replace(/^python3\b/, PY) : c.command;
  try {
    const res = await runTask({
      repoDir: m.dir,
      branch: `proofpr/1-${c.id}`.slice(0, 60),
      task: { kind: 'issue', issue: 1, title: c.issue.title, body: c.issue.body },
      config: configFor(c, command),
      model: createScriptedModel(scriptFor(c, command)),
      modelId: 'claude-sonnet-5-5',
      mode: 'fix',
      runId: `trap-${c.id}-${Date.now()}`,
      runDir: join(m.work, 'run'),
      worktreesDir: join(m.work, 'worktrees'),
    });
    return res.evidence;
  } finally {
    rmSync(m.work, { recursive: true, force: true });
  }
}

/** What a failed expectation prints: the verdict, its reason and the failed gates with their details. */
export function explain(ev: Evidence): string {
  const failed = ev.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail.slice(0, 300)}`);
  return `${ev.verdict}: ${ev.reason}\n${failed.join('\n')}`;
}
