/**
 * The verification nudge (seed 000 §6.3): ticking the last box is not finishing. When the model marks a
 * plan of three or more todos completed and none of them was a verification step (run the tests, check,
 * reproduce…), the next request carries a reminder to verify before it stops. Once per plan: the same
 * list marked completed again is not nudged twice. The gates still decide; this only saves a round trip.
 */
import type { TodoItem } from '../events.js';

/** The smallest plan the nudge looks at: one- and two-step lists are too small to forget a check in. */
export const NUDGE_MIN_TODOS = 3;

/** A step that verifies something: testing, checking, reproducing, linting. */
const VERIFY_WORDS =
  /\b(test|tests|tested|testing|spec|specs|verify|verified|verifies|verifying|verification|check|checks|checked|checking|reproduce|reproduced|repro|confirm|confirmed|validate|validated|validation|lint|lints|typecheck|type-check|assert|assertions?|jest|pytest|vitest|mocha|ctest|go test|cargo test|npm test|run the suite)\b/i;

export function isVerificationStep(content: string): boolean {
  return VERIFY_WORDS.test(content);
}

export const VERIFICATION_NUDGE =
  'You marked every item of your plan completed, but none of them was a verification step. Before you finish, ' +
  'verify the work: run the test command after your last edit and read its result (add or extend a test when the ' +
  'change has none). The harness gates decide whether the work is done, not the todo list.';

export interface VerificationNudge {
  /** The todo list a tool call just wrote → the reminder for the next request, or undefined. */
  observe(todos: readonly TodoItem[]): string | undefined;
}

const key = (todos: readonly TodoItem[]): string => JSON.stringify(todos.map((t) => t.content.trim().toLowerCase()));

export function createVerificationNudge(): VerificationNudge {
  const nudged = new Set<string>();
  return {
    observe(todos) {
      if (todos.length < NUDGE_MIN_TODOS) return undefined;
      if (!todos.every((t) => t.status === 'completed')) return undefined;
      if (todos.some((t) => isVerificationStep(t.content))) return undefined;
      const k = key(todos);
      if (nudged.has(k)) return undefined;
      nudged.add(k);
      return VERIFICATION_NUDGE;
    },
  };
}
