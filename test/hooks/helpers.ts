import { afterEach } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecPort, ExecRequest } from '../../src/workspace/exec-port.js';
import { createExec } from '../../src/workspace/exec.js';
import type { SandboxSetting } from '../../src/workspace/sandbox.js';
import { tempDir } from '../kit/temp.js';

export type RecordingExec = ExecPort & { calls: ExecRequest[] };

/**
 * The product's exec (scrubbed env, process groups, optional bubblewrap) for `root`, wrapped so a
 * test can see every request. `tmp` is the exec's own temp folder (writable in the sandbox).
 */
export async function makeExec(
  root: string,
  sandbox: SandboxSetting = 'off',
): Promise<{ exec: RecordingExec; tmp: string; dispose: () => Promise<void> }> {
  const runTmp = tempDir('proofpr-runtmp-');
  const handle = await createExec({ root, runTmp, sandbox });
  const calls: ExecRequest[] = [];
  const exec = Object.assign(
    (req: ExecRequest) => {
      calls.push(req);
      return handle.exec(req);
    },
    { calls },
  );
  return {
    exec,
    tmp: join(runTmp, 'tmp'),
    dispose: async () => {
      await handle.dispose();
      rmSync(runTmp, { recursive: true, force: true });
    },
  };
}

/**
 * For the calling describe: one temp folder as the repository root, and `exec()` making a fresh recording
 * exec on it (makeExec) that is disposed when its test ends.
 */
export function execsOn(prefix: string): { root: string; exec: () => Promise<RecordingExec> } {
  const root = tempDir(prefix);
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });
  return {
    root,
    async exec() {
      const { exec, dispose } = await makeExec(root);
      disposers.push(dispose);
      return exec;
    },
  };
}
