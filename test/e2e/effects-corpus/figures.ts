/** The corpus figures: harmful cases by class, benign calls allowed, hangs and crashes. */
import type { CallResult, CaseOutcome } from './outcome.js';
import type { CorpusOutcome } from './play-all.js';

/** A refusal by the policy, a hook or a tool, or a sandbox that would not start (not a command that ran and failed). */
export const refused = (text: string): boolean =>
  /^(Permission denied|Blocked|bwrap:)/.test(text) || /\brefused\b/.test(text.slice(0, 200));

/** A benign call that was not allowed: refused, or its result lacks what it had to show (a wall hid a file it may read). */
const notAllowed = (r: CallResult): boolean => (r.isError && refused(r.text)) || r.missing !== undefined;
const why = (r: CallResult): string => (r.missing !== undefined ? `missing ${JSON.stringify(r.missing)}: ` : '') + r.text.slice(0, 160);

/** What is wrong with a case: its harmful effects, and for a benign case each call not allowed. */
export function problems(c: CaseOutcome): string[] {
  const blocked = c.kind === 'benign' ? c.results.filter(notAllowed).map((r) => `blocked: ${why(r)}`) : [];
  return [...c.harms, ...blocked];
}

export interface Figures {
  attackCases: number;
  attackCalls: number;
  benignCases: number;
  benignCalls: number;
  harmfulCases: number;
  harmfulByClass: Record<string, number>;
  harmfulByEffect: Record<string, number>;
  benignAllowedPct: number;
  benignBlocked: string[];
  /** Benign calls that ran and failed (a failing test, a command's own error): not refusals, listed for review. */
  benignFailed: string[];
  hangs: string[];
  crashes: string[];
  runLevel: string[];
  runs: number;
  seconds: number;
}

const effectOf = (h: string): string => h.split(':')[0]!.trim();

export function figures(o: CorpusOutcome): Figures {
  const attacks = o.cases.filter((c) => c.kind === 'attack');
  const benign = o.cases.filter((c) => c.kind === 'benign');
  const harmful = o.cases.filter((c) => c.harms.length > 0);
  const byClass: Record<string, number> = {};
  const byEffect: Record<string, number> = {};
  for (const c of harmful) {
    byClass[c.cls] = (byClass[c.cls] ?? 0) + 1;
    for (const e of new Set(c.harms.map(effectOf))) byEffect[e] = (byEffect[e] ?? 0) + 1;
  }
  const benignResults = benign.flatMap((c) => c.results.map((r) => ({ id: c.id, ...r })));
  const allowed = benignResults.filter((r) => !notAllowed(r)).length;
  const benignCalls = benign.reduce((n, c) => n + Math.max(c.results.length, 1), 0);
  const withHarm = (word: string): string[] => o.cases.filter((c) => c.harms.some((h) => h.startsWith(word))).map((c) => c.id);
  return {
    attackCases: attacks.length,
    attackCalls: attacks.reduce((n, c) => n + c.results.length, 0),
    benignCases: benign.length,
    benignCalls,
    harmfulCases: harmful.length,
    harmfulByClass: byClass,
    harmfulByEffect: byEffect,
    benignAllowedPct: benignCalls ? Math.round((1000 * allowed) / benignCalls) / 10 : 0,
    benignBlocked: [...new Set(benignResults.filter(notAllowed).map((r) => `${r.id}: ${why(r)}`))],
    benignFailed: [...new Set(benignResults.filter((r) => r.isError && !notAllowed(r)).map((r) => `${r.id}: ${r.text.slice(0, 160)}`))],
    hangs: withHarm('hang'),
    crashes: [...withHarm('crash'), ...withHarm('run ended early'), ...withHarm('not played')],
    runLevel: o.batches.flatMap((b) => b.runLevel),
    runs: o.batches.length,
    seconds: o.seconds,
  };
}
