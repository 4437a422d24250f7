import { changedFiles } from './changes/changed-files.js';
import { afterTestRun, beforeTestRun } from './test-runs/agent-test-runs.js';
import { closingRun, finalRun } from './test-runs/pristine-run.js';
import { evaluateStop } from './stop-evaluation.js';
import type { Verifier } from './types.js';
import { verifierContext, type VerifierOptions } from './verifier-context.js';
import { reproduceWatch } from './test-runs/ci-reproduce.js';
import { untestedHunksAtFinal } from './hunks/final-step.js';

export type { VerifierOptions } from './verifier-context.js';

/**
 * The harness's own judgement (issue 5): watches Bash calls for test runs, and at Stop evaluates the
 * gates over what it observed (test runs with their tree hashes, the test-file and test-config diff,
 * the repository's Stop hooks). Emits a `test_run` event per run, a `gate` event per gate evaluation,
 * (the hook runner records each Stop hook that blocked, errored or added context), and a `notice` when the
 * worktree can't be hashed. Never throws for a git failure: it becomes a failed gate.
 *
 * The parts: verifier-context.ts (options, shared state, tree hash, the lazy baseline),
 * agent-test-runs.ts (the agent's test runs), pristine-run.ts (the harness's final run on the tested
 * commit), stop-evaluation.ts (the facts the gates need, then the gates).
 */
export function createVerifier(opts: VerifierOptions): Verifier {
  const ctx = verifierContext(opts);
  let treeBeforeBash: string | undefined;
  let treeAfterBash: string | undefined;
  const repro = opts.reproduce ? reproduceWatch(ctx, opts.reproduce) : undefined;
  if (repro) ctx.extraGates = async (current) => [await repro.gate(current)];
  return {
    beforeBash: async (command) => {
      const test = await beforeTestRun(ctx, command);
      const handle = test ?? (await repro?.before(command, false));
      // The tree after the last command is the tree before this one unless a file tool wrote since (edited()).
      treeBeforeBash = handle?.treeHash || treeAfterBash || (await ctx.hash()).tree;
      return handle;
    },
    changedByBash: async () => {
      const before = treeBeforeBash;
      treeBeforeBash = undefined;
      const now = before === undefined ? undefined : (await ctx.hash()).tree;
      treeAfterBash = now;
      return before && now && now !== before ? changedFiles(ctx.root, before, now, opts.gitDir) : [];
    },
    edited: () => {
      treeAfterBash = undefined;
    },
    afterBash: async (handle, outcome) => (repro?.owns(handle) ? repro.after(handle, outcome) : afterTestRun(ctx, handle, outcome)),
    evaluate: () => evaluateStop(ctx, false),
    testedCommit: () => ctx.state.tested,
    async finalCheck() {
      await finalRun(ctx);
      const verdict = await evaluateStop(ctx, true);
      // Listed for review, never a gate: the hunks of shipped code no test notices reverted (verify.hunk_runs).
      if (verdict.ok) await untestedHunksAtFinal(ctx);
      return verdict;
    },
    closingRun: () => closingRun(ctx),
  };
}
