/** Which gate results count: the last evaluation of the Stop gates (the harness's final check first). */
import type { GateResult, RunEvent } from '../events.js';

type GateEvent = Extract<RunEvent, { type: 'gate' }>;

export interface GateSelection {
  gates: GateResult[];
  /** Index in the event list where the chosen evaluation starts (-1 when there was none). */
  at: number;
}

/** Events that may sit between the gate events of one evaluation (the repo's Stop hooks, notices). */
const INSIDE_EVALUATION = new Set<RunEvent['type']>(['gate', 'hook', 'notice']);

/**
 * Groups consecutive gate events into evaluations and picks the last one that holds final gates
 * (the harness's own run at the end); without final gates, the last evaluation. A gate that appears
 * twice in one evaluation keeps its last result.
 */
export function selectFinalGates(events: readonly RunEvent[]): GateSelection {
  const evaluations: { at: number; gates: GateEvent[] }[] = [];
  let current: { at: number; gates: GateEvent[] } | undefined;
  events.forEach((ev, i) => {
    if (ev.type === 'gate') {
      if (!current) {
        current = { at: i, gates: [] };
        evaluations.push(current);
      }
      current.gates.push(ev);
    } else if (!INSIDE_EVALUATION.has(ev.type)) {
      current = undefined;
    }
  });
  const withFinal = evaluations.filter((e) => e.gates.some((g) => g.final));
  const chosen = withFinal.at(-1) ?? evaluations.at(-1);
  if (!chosen) return { gates: [], at: -1 };
  const picked = withFinal.length > 0 ? chosen.gates.filter((g) => g.final) : chosen.gates;
  const byName = new Map<string, GateResult>();
  for (const g of picked)
    byName.set(g.name, { name: g.name, passed: g.passed, detail: g.detail, ...(g.advisory ? { advisory: true } : {}) });
  return { gates: [...byName.values()], at: chosen.at };
}

/**
 * The tree the gates accepted: when every gate of the chosen evaluation passed, the tree hash of the
 * last test run before it. Undefined when the gates did not all pass or no run preceded them.
 */
export function acceptedTreeHash(events: readonly RunEvent[], selection: GateSelection): string | undefined {
  if (selection.at < 0 || selection.gates.length === 0 || selection.gates.some((g) => !g.passed)) return undefined;
  for (let i = selection.at - 1; i >= 0; i--) {
    const ev = events[i];
    // The baseline and red→green runs are on the base commit, not on the work.
    if (ev?.type === 'test_run' && ev.run.kind !== 'baseline' && ev.run.kind !== 'red-green' && ev.run.kind !== 'kept')
      return ev.run.treeHash;
  }
  return undefined;
}
