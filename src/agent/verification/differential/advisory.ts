import type { GateResult } from '../../events.js';
import { evaluateGates, runThatCounts, type GateFacts } from '../gates/gates.js';
import type { VerifierContext } from '../verifier-context.js';
import { KEPT_GATE } from './judge-kept.js';

/**
 * The parsed test-integrity checks (assertions, skip markers, test config read from the diff): early
 * feedback to the model, not the verdict, wherever the differential run judges the change instead.
 */
export const ADVISORY_GATES: ReadonlySet<string> = new Set(['assertions-kept', 'test-config-kept']);

/** Whether the differential run will judge this run's test changes: the harness's own final run is on. */
export function differentialJudges(ctx: VerifierContext): boolean {
  return ctx.config.gates.final_run && ctx.config.test.command !== undefined;
}

const key = (g: GateResult): string => `${g.name}\0${g.detail}`;

/**
 * The failing count gates the kept run decides instead, by test id: `tests-kept` (a base test the final
 * run no longer executes) and `tests-ran` when it fails only because fewer tests ran than earlier or on
 * the base (judged on the counting run alone it passes). Deleted and renamed base tests are then
 * changed expectations of the kept run; an unreadable count or too few tests (`test.min_tests`) still fail.
 */
export function deferredToKept(facts: GateFacts, gates: readonly GateResult[]): Set<string> {
  const out = new Set<string>();
  const failing = (name: string, list: readonly GateResult[]) => list.some((g) => g.name === name && !g.passed);
  if (failing('tests-kept', gates)) out.add('tests-kept');
  if (failing('tests-ran', gates)) {
    const { testsKept: _k, baselineExecuted: _b, ...rest } = facts;
    const counting = runThatCounts(facts.testRuns);
    const alone = evaluateGates({ ...rest, testRuns: counting ? [counting] : [] });
    if (alone.some((g) => g.name === 'tests-ran' && g.passed)) out.add('tests-ran');
  }
  return out;
}

const OBSOLETE =
  " (when the issue makes a base test obsolete, it may go: the final check runs the base commit's own tests on the code and lists each deleted or renamed test for review)";

/** The gates that are early feedback here: the parsed checks, and the count gates the kept run decides. */
const advisory = (deferred: ReadonlySet<string>) => (g: GateResult) => ADVISORY_GATES.has(g.name) || deferred.has(g.name);

/**
 * At a Stop: a failing parsed check (or a count gate the kept run decides) sends the model back once
 * with what it found (the same finding is not repeated); after that, when it is the only thing failing,
 * it no longer blocks the stop, and the final check decides.
 */
export function adviseAtStop(ctx: VerifierContext, gates: GateResult[], deferred: ReadonlySet<string> = new Set()): GateResult[] {
  if (!differentialJudges(ctx)) return gates;
  const soft = advisory(deferred);
  // Another gate fails anyway: the stop is blocked, and the parsed findings are shown as they are.
  if (gates.some((g) => !g.passed && !soft(g))) return gates;
  const failing = gates.filter((g) => soft(g) && !g.passed);
  const fresh = failing.filter((g) => !ctx.state.advisoryShown.has(key(g)));
  for (const g of fresh) ctx.state.advisoryShown.add(key(g));
  if (fresh.length) return gates.map((g) => (deferred.has(g.name) && !g.passed ? { ...g, detail: `${g.detail}${OBSOLETE}` } : g));
  return gates.map((g) =>
    soft(g) && !g.passed
      ? {
          ...g,
          passed: true,
          advisory: true,
          detail: `early feedback, already given; the final check runs the base commit's own tests on the change: ${g.detail}`,
        }
      : g,
  );
}

/**
 * At the final check, when the kept run judged the change: the parsed checks, and the count gates it
 * decided (deleted and renamed base tests are its changed expectations), are listed, not counted.
 */
export function adviseAtFinal(gates: GateResult[], deferred: ReadonlySet<string> = new Set()): GateResult[] {
  const soft = advisory(deferred);
  return gates.map((g) =>
    soft(g) && !g.passed
      ? { ...g, passed: true, advisory: true, detail: `early feedback only; the verdict on test changes is ${KEPT_GATE}: ${g.detail}` }
      : g,
  );
}
