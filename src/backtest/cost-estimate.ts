/**
 * An estimate of the model cost of one run on this repository, from its size (docs/backtest.md):
 *   repo tokens  R = tracked text bytes / 4
 *   read tokens  r = min(0.05 × R, 100 000)          (what the agent reads of the repository)
 *   context      c = 15 000 + r / 2                  (system prompt and tools, plus half the reads on average)
 *   input        I = 30 turns × c;  output O = 30 × 600
 *   USD          = (0.215 × I × input price + O × output price) / 1e6
 * (0.215: nine tenths of the input read from the prompt cache at 0.1×, one tenth written at 1.25×.)
 */
import { priceFor } from '../model/pricing.js';
import { git } from './git.js';
import type { CostEstimate } from './types.js';

const TURNS = 30;
const OUTPUT_PER_TURN = 600;
const FIXED_CONTEXT = 15_000;
const CACHED_INPUT_FACTOR = 0.9 * 0.1 + 0.1 * 1.25;

export const COST_FORMULA =
  'R = tracked bytes / 4; r = min(0.05 R, 100000); I = 30 × (15000 + r/2); O = 30 × 600; USD = (0.215 I × input price + O × output price) / 1e6';

export function estimateFromSize(model: string, trackedFiles: number, trackedBytes: number): CostEstimate {
  const read = Math.min(0.05 * (trackedBytes / 4), 100_000);
  const inputTokens = Math.round(TURNS * (FIXED_CONTEXT + read / 2));
  const outputTokens = TURNS * OUTPUT_PER_TURN;
  const p = priceFor(model);
  const usd = (CACHED_INPUT_FACTOR * inputTokens * p.input + outputTokens * p.output) / 1e6;
  return { model, trackedFiles, trackedBytes, inputTokens, outputTokens, usdPerRun: +usd.toFixed(3), formula: COST_FORMULA };
}

/** The estimate for the repository at `rev` (tracked files and their sizes, from git). */
export function estimateCost(repo: string, rev: string, model: string): CostEstimate {
  const sizes = git(repo, ['ls-tree', '-r', '-l', rev])
    .split('\n')
    .map((l) => Number(l.split(/\s+/)[3]))
    .filter((n) => Number.isFinite(n));
  return estimateFromSize(
    model,
    sizes.length,
    sizes.reduce((s, n) => s + n, 0),
  );
}
