/** The App (createProofpr) against the nock GitHub with a chosen RunTask, workspace and model factory. */
import type { RunTask } from '../../src/run/run-task-types.js';
import type { ModelFactory, WorkspacePort } from '../../src/usecases/ports.js';
import { startHarness, type Harness } from '../hosts/probot/harness.js';
import { tempDir } from '../kit/temp.js';

export { until, type Harness } from '../hosts/probot/harness.js';

/** A workspace whose mirror is `repoDir` (a real git repository) and whose pushes are only recorded. */
export function fakeWorkspace(repoDir: string): WorkspacePort & { pushes: unknown[] } {
  const pushes: unknown[] = [];
  return {
    pushes,
    ensureMirror: async () => ({ dir: repoDir }),
    async pushBranch(o) {
      pushes.push(o);
      return { pushed: true, sha: 'c'.repeat(40) };
    },
  };
}

export function startHarnessWith(opts: { runTask: RunTask; workspace: WorkspacePort; modelFactory: ModelFactory }): Promise<Harness> {
  return startHarness(opts.runTask, opts.workspace, tempDir('proofpr-memory-'), {
    modelFactory: opts.modelFactory,
    env: { PROOFPR_SWEEP_SCHEDULER: 'off' },
  });
}
