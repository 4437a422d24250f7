/** The App (createProofpr) against the nock GitHub with a chosen RunTask, workspace and model factory. */
import { rmSync } from 'node:fs';
import { silentLogger } from '../../src/log.js';
import { createProofpr } from '../../src/hosts/probot/create-proofpr.js';
import type { RunTask } from '../../src/run/run-task-types.js';
import type { ModelFactory, WorkspacePort } from '../../src/usecases/ports.js';
import { TestOctokit, testPrivateKey, type Harness } from '../hosts/probot/harness.js';
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

export async function startHarnessWith(opts: { runTask: RunTask; workspace: WorkspacePort; modelFactory: ModelFactory }): Promise<Harness> {
  const home = tempDir('proofpr-memory-');
  const app = await createProofpr({
    env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 'test-secret', PROOFPR_HOME: home, PROOFPR_SWEEP_SCHEDULER: 'off' },
    ...opts,
    Octokit: TestOctokit,
    progressIntervalMs: 0,
    probotLog: silentLogger,
  });
  return {
    app,
    home,
    async close() {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
