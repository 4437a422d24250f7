/**
 * A corpus case played through the product: runTask on the case's base repository with a scripted model
 * that makes the case's edits (script.ts), the case's test command as the repository's; its evidence
 * and summary.md.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Evidence } from '../../../src/agent/evidence/types.js';
import { runIssue } from '../helpers.js';
import { materialize } from './materialize.js';
import { configFor, scriptFor } from './script.js';
import type { CorpusCase, Runner } from './types.js';

/**
 * The interpreter the sandbox can run: the home folder is hidden there, so a python3 that is a shim under
 * it (pyenv) fails; the system python3 (with pytest for a pytest case) is what CI installs.
 */
function python(runner: Runner): string {
  const sys = '/usr/bin/python3';
  if (!existsSync(sys)) return 'python3';
  return runner !== 'pytest' || spawnSync(sys, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0 ? sys : 'python3';
}

export interface Played {
  ev: Evidence;
  /** summary.md of the run ('' when the run wrote none). */
  summary: string;
}

/** Plays `c` through the product, with `extra` lines under the config's `gates:` section. */
export async function playCase(c: CorpusCase, extra = ''): Promise<Played> {
  const m = materialize(c, 'base', { root: process.cwd() });
  // Every `python3` word of the command and of the shell steps: the interpreter the sandbox sees.
  const shell = (s: string): string => (c.lang === 'py' ? s.replace(/(^|\s)python3\b/g, `$1${python(c.runner)}`) : s);
  const command = shell(c.command);
  try {
    const { res } = await runIssue(m, {
      issue: { number: 1, ...c.issue },
      branch: `proofpr/1-${c.id}`.slice(0, 60),
      config: configFor(c, command, extra, shell),
      script: scriptFor(c, command, shell),
    });
    const summary = join(res.runDir, 'summary.md');
    return { ev: res.evidence, summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
  } finally {
    rmSync(m.work, { recursive: true, force: true });
  }
}

/** What a failed expectation prints: the verdict, its reason and the failed gates with their details. */
export function explain(ev: Evidence): string {
  const failed = ev.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail.slice(0, 300)}`);
  return `${ev.verdict}: ${ev.reason}\n${failed.join('\n')}`;
}
