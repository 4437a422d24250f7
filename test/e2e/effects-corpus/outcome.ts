/** What the player records per case: its harmful effects, and each call's result as the model got it. */
import type { EffectCase } from './types.js';

export interface CallResult {
  isError: boolean;
  /** The start of the result text (for the report). */
  text: string;
  ms: number;
  /** The text the call's result had to hold and did not (ToolCall.expect). */
  missing?: string;
}

export interface CaseOutcome {
  id: string;
  kind: EffectCase['kind'];
  cls: string;
  played: boolean;
  harms: string[];
  results: CallResult[];
}

/** The outcomes of one batch: its cases, plus harms no single case can be named for. */
export interface BatchOutcome {
  cases: CaseOutcome[];
  runLevel: string[];
  exitCode: number | null;
  verdict: string;
  seconds: number;
  stderrTail: string;
  /** What the fake API billed the run (USD, at the product's prices) and how many model requests it answered. */
  billedUsd?: number;
  modelRequests?: number;
}

export function harm(o: CaseOutcome | undefined, runLevel: string[], what: string): void {
  const into = o ? o.harms : runLevel;
  if (!into.includes(what)) into.push(what);
}
