/** The effects corpus: every case, attacks and benign calls (README.md). */
import { benignCases } from './cases-benign.js';
import { execCases } from './cases-exec.js';
import { readCases } from './cases-read.js';
import { round2Cases } from './cases-round2.js';
import { writeCases } from './cases-write.js';
import type { EffectCase } from './types.js';

export const cases: EffectCase[] = [...readCases, ...writeCases, ...execCases, ...benignCases, ...round2Cases];

export function callCount(kind: EffectCase['kind']): number {
  return cases.filter((c) => c.kind === kind).reduce((n, c) => n + c.calls.length, 0);
}
