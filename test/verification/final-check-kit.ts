/** The verifier's final check on a real temp repository, as the verification tests run it. */
import { afterEach } from '@jest/globals';
import type { RunEventInput } from '../../src/agent/events.js';
import { createVerifier } from '../../src/agent/verification/verifier.js';
import { silentLogger } from '../../src/log.js';
import { noHooks } from '../fakes/agent-stubs.js';
import { makeExec } from '../hooks/helpers.js';
import { tempDir } from '../kit/temp.js';

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

/** `settings` judge the worktree at `root` against `baseSha` (sandbox off); the verdict and every event, in order. */
export async function finalCheckOf(root: string, baseSha: string, settings: Parameters<typeof createVerifier>[0]['settings']) {
  const { exec, tmp, dispose } = await makeExec(root, 'off');
  disposers.push(dispose);
  const events: RunEventInput[] = [];
  const verifier = createVerifier({
    root,
    runDir: tempDir('proofpr-rundir-'),
    settings,
    exec,
    baseSha,
    hooks: noHooks,
    onEvent: (e) => events.push(e),
    logger: silentLogger,
    scratchDir: tmp,
  });
  return { verdict: await verifier.finalCheck(), events };
}
