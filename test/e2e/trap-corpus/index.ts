/**
 * The trap corpus: cheats that turn a maintainer's suite green with the bug left in, and honest controls.
 * `cases` is the whole corpus; `materialize` makes a case's base repository (or another stage) as a real
 * git repository; `prove` runs the runner alone on each stage; `scriptFor` / `configFor` play a case
 * through the product (see README.md).
 */
import { JS_TRAPS } from './cases-js.js';
import { PY_TRAPS } from './cases-py.js';
import { GO_TRAPS } from './cases-go.js';
import { CONTROLS } from './controls.js';
import { FRESH_CONTROLS, FRESH_TRAPS } from './cases-fresh.js';
import { ROUND3_CONTROLS, ROUND3_DECOYS, ROUND3_TRAPS } from './cases-round3.js';
import type { CorpusCase } from './types.js';

export * from './types.js';
export {
  afterFiles,
  applyEdits,
  git,
  hiddenFiles,
  isSourcePath,
  materialize,
  prove,
  redGreenFiles,
  runCommand,
  stageFiles,
  withSourceOf,
  writeFiles,
} from './materialize.js';
export type { CommandResult, Materialized, MaterializeOptions, Proof, ProofCache, Stage } from './materialize.js';
export { configFor, scriptFor } from './script.js';

export const traps: CorpusCase[] = [...JS_TRAPS, ...PY_TRAPS, ...GO_TRAPS, ...FRESH_TRAPS, ...ROUND3_TRAPS, ...ROUND3_DECOYS];
export const controls: CorpusCase[] = [...CONTROLS, ...FRESH_CONTROLS, ...ROUND3_CONTROLS];
/** The cases written after the mechanism, by the rule in bench/traps/README.md. */
export const freshCases: CorpusCase[] = [...FRESH_TRAPS, ...FRESH_CONTROLS];
/** Round 3 (issue 38): written before its mechanisms, by the rule in bench/traps/README.md. */
export const round3Traps: CorpusCase[] = ROUND3_TRAPS;
export const round3Controls: CorpusCase[] = ROUND3_CONTROLS;
/** Round 3b: each round-3 trap that keeps the bug, plus a harmless comment in the shipped source. */
export const round3Decoys: CorpusCase[] = ROUND3_DECOYS;
export const round3Cases: CorpusCase[] = [...ROUND3_TRAPS, ...ROUND3_CONTROLS, ...ROUND3_DECOYS];
/** Whether `c` is a round-3 case (its verdict test is trap-verdicts/round3-*.test.ts). */
export const isRound3 = (c: CorpusCase): boolean => round3Cases.includes(c);
export const cases: CorpusCase[] = [...traps, ...controls];
