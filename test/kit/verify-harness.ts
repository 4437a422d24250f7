/**
 * The harness's own test runs in a real repository, for the verification tests: the product's exec on
 * the repository, disposed when the run ends. Starts processes: integration tests only.
 */
import type { TestRun } from '../../src/agent/events.js';
import { harnessTestRun } from '../../src/agent/verification/test-runs/harness-run.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { SandboxSetting } from '../../src/workspace/sandbox.js';
import { makeExec, type RecordingExec } from '../hooks/helpers.js';

/** `fn` given a fresh exec on `root` and that exec's scratch folder; the exec is disposed when `fn` ends. */
export async function withExec<T>(
  root: string,
  sandbox: SandboxSetting,
  fn: (exec: RecordingExec, scratchDir: string) => Promise<T>,
): Promise<T> {
  const { exec, tmp, dispose } = await makeExec(root, sandbox);
  try {
    return await fn(exec, tmp);
  } finally {
    await dispose();
  }
}

/** The harness's final test run of `command` in `root`, with test.command set to it. */
export function harnessRun(root: string, command: string, sandbox: SandboxSetting = 'off'): Promise<TestRun> {
  const config = parseRepoConfig(`test:\n  command: ${JSON.stringify(command)}\n`);
  return withExec(root, sandbox, async (exec, scratchDir) => {
    const { run } = await harnessTestRun({ cwd: root, command, config, exec, scratchDir, kind: 'final', treeHash: '' });
    return run;
  });
}
