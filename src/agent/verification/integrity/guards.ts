import type { Guard, Span } from './model.js';
import { linesOf, type Node } from './parse.js';

/** What a language tells the guard walk: the guard a parent puts around `child`, its blocks, its exits. */
export interface GuardRules {
  /** The guard `p` puts around its child `child` (the node on the path from the assertion), if any. */
  guardOf(p: Node, child: Node): Guard | undefined;
  /** Whether `t` is a statement list whose earlier statements can exit before `child` runs. */
  isBlock(t: string): boolean;
  /** Whether a statement returns or throws (outside nested functions). */
  exits(s: Node): boolean;
}

export const span = (n: Node): Span => ({ ...linesOf(n), text: n.text });

export const guarded = (g: Partial<Record<Guard, Span>>): { guards: Guard[]; guardSpans: Partial<Record<Guard, Span>> } => ({
  guards: Object.keys(g) as Guard[],
  guardSpans: g,
});

/** Guards between an assertion `n` and its test function `fn`, each with the span of its first occurrence. */
export function guardsBetween(n: Node, fn: Node, rules: GuardRules): Partial<Record<Guard, Span>> {
  const out = new Map<Guard, Span>();
  const at = (g: Guard, x: Node): void => {
    if (!out.has(g)) out.set(g, span(x));
  };
  let child = n;
  let p = n.parent;
  while (p && p.id !== fn.id) {
    const g = rules.guardOf(p, child);
    if (g) at(g, p);
    if (rules.isBlock(p.type)) {
      for (const s of p.namedChildren) {
        if (!s || s.id === child.id) break;
        if (rules.exits(s)) at('after-return', s);
      }
    }
    child = p;
    p = p.parent;
  }
  return Object.fromEntries(out) as Partial<Record<Guard, Span>>;
}
