import { join } from 'node:path';
import type { GateResult, TestRun } from '../../events.js';
import type { VerifierContext } from '../verifier-context.js';
import { judgeKept, KEPT_GATE } from './judge-kept.js';
import { keptRun, type HarnessChange } from './kept-run.js';

/**
 * At the final check, after the harness's final run of the commit passed: the maintainer's tests judge
 * the agent's code. The commit's source runs under the base commit's own test harness (kept run);
 * its gate `tests-kept-base` fails when a test that failed on the base still fails there, or a base
 * test regressed; changed expectations are listed (and fail with gates.changed_tests: fail). Emits the
 * kept run as a `test_run` (kind `kept`, never the counting run) and a `differential` event. Undefined
 * when there is nothing to judge this way (no passing final run, no known baseline).
 */
export async function differentialGate(
  ctx: VerifierContext,
  counting: TestRun | undefined,
): Promise<{ gate: GateResult; keptRan: boolean } | undefined> {
  const tested = ctx.state.tested;
  if (!counting || counting.by !== 'harness' || counting.kind !== 'final' || counting.exitCode !== 0 || !tested) return undefined;
  if (ctx.state.differential?.sha === tested.sha) return ctx.state.differential.result;
  const base = await ctx.getBaseline();
  if (!base?.countsKnown) return undefined;
  const started = Date.now();
  const kept = await keptRun({
    root: ctx.root,
    ...ctx.gitDir,
    baseSha: ctx.opts.baseSha,
    sha: tested.sha,
    config: ctx.config,
    exec: ctx.opts.exec,
    scratchDir: ctx.scratch,
    outputFile: join(ctx.opts.runDir, 'tool-output', 'kept-test-run.txt'),
    ...(ctx.opts.signal ? { signal: ctx.opts.signal } : {}),
    logger: ctx.log,
  });
  let gate: GateResult;
  if (!kept) {
    gate = {
      name: KEPT_GATE,
      passed: true,
      detail:
        'every change is the code the project ships (or its dependencies): the final run already ran the base commit’s own tests on it',
    };
  } else {
    ctx.onEvent({ type: 'test_run', run: kept.run });
    const j = judgeKept({
      base,
      kept: kept.run,
      final: counting,
      change: kept.change,
      output: kept.output,
      mode: ctx.config.gates.changed_tests,
      baseSha: ctx.opts.baseSha,
    });
    gate = failOnInfrastructure(j.gate, kept.change, ctx.config.gates.changed_tests);
    ctx.onEvent({
      type: 'differential',
      differential: {
        kept: {
          command: kept.run.command,
          counts: kept.run.counts,
          failedTests: (kept.run.tests ?? []).filter((t) => t.outcome === 'failed').map((t) => t.id),
          restored: kept.change.restored,
          removed: kept.change.removed,
          packageJson: kept.change.packageJson,
          ...(kept.run.outputPath ? { outputPath: kept.run.outputPath } : {}),
          durationMs: Date.now() - started,
        },
      },
      changedExpectations: j.changedExpectations,
    });
  }
  const result = { gate, keptRan: kept !== undefined };
  ctx.state.differential = { sha: tested.sha, result };
  return result;
}

/**
 * With gates.changed_tests: fail, a change outside the shipped code (a config, data, a fixture, whatever
 * its name: the kept run had to put it back) fails the gate like a changed expectation; with review it
 * is listed (evidence infrastructureChanges) and the gate stands on the kept run.
 */
function failOnInfrastructure(gate: GateResult, change: HarnessChange, mode: string): GateResult {
  const isTestLike = (p: string): boolean => change.tests?.includes(p) ?? false;
  const other = [...change.restored, ...change.removed].filter((p) => !isTestLike(p));
  if (mode !== 'fail' || other.length === 0 || !gate.passed) return gate;
  return {
    ...gate,
    passed: false,
    detail: `${gate.detail}; the change also holds what the project does not ship and is not a test: ${other.slice(0, 6).join(', ')}${other.length > 6 ? ', …' : ''} (gates.changed_tests: fail)`,
  };
}
