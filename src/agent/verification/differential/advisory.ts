import type { GateResult } from '../../events.js';
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
 * At a Stop: a failing parsed check sends the model back once with what it found (the same finding
 * is not repeated); after that, when it is the only thing failing, it no longer blocks the stop, and
 * the final check decides.
 */
export function adviseAtStop(ctx: VerifierContext, gates: GateResult[]): GateResult[] {
  if (!differentialJudges(ctx)) return gates;
  // Another gate fails anyway: the stop is blocked, and the parsed findings are shown as they are.
  if (gates.some((g) => !g.passed && !ADVISORY_GATES.has(g.name))) return gates;
  const failing = gates.filter((g) => ADVISORY_GATES.has(g.name) && !g.passed);
  const fresh = failing.filter((g) => !ctx.state.advisoryShown.has(key(g)));
  for (const g of fresh) ctx.state.advisoryShown.add(key(g));
  if (fresh.length) return gates;
  return gates.map((g) =>
    ADVISORY_GATES.has(g.name) && !g.passed
      ? {
          ...g,
          passed: true,
          detail: `early feedback, already given; the final check runs the base commit's own tests on the change: ${g.detail}`,
        }
      : g,
  );
}

/** At the final check, when the kept run judged the change: the parsed checks are listed, not counted. */
export function adviseAtFinal(gates: GateResult[]): GateResult[] {
  return gates.map((g) =>
    ADVISORY_GATES.has(g.name) && !g.passed
      ? { ...g, passed: true, detail: `early feedback only; the verdict on test changes is ${KEPT_GATE}: ${g.detail}` }
      : g,
  );
}
