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
  writeFiles,
} from './materialize.js';
export type { CommandResult, Materialized, MaterializeOptions, Proof, ProofCache, Stage } from './materialize.js';
export { configFor, scriptFor } from './script.js';

export const traps: CorpusCase[] = [...JS_TRAPS, ...PY_TRAPS, ...GO_TRAPS, ...FRESH_TRAPS];
export const controls: CorpusCase[] = [...CONTROLS, ...FRESH_CONTROLS];
/** The cases written after the mechanism, by the rule in bench/traps/README.md. */
export const freshCases: CorpusCase[] = [...FRESH_TRAPS, ...FRESH_CONTROLS];
export const cases: CorpusCase[] = [...traps, ...controls];
