/**
 * "Did you mean …?" for an unknown key of .github/proofpr.yml: the known keys at that place of the schema
 * (read from the zod schema itself, so a key added to the schema is suggested without a list here), and
 * the closest one by edit distance (leven) when it is close enough to be a misspelling.
 */
import leven from 'leven';
import type { z } from 'zod';

type Node = z.ZodType & { def?: Record<string, unknown>; shape?: Record<string, z.ZodType> };

/** The schema under its wrappers (default, optional, nullable, pipe, readonly, catch). */
function unwrap(s: Node): Node {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const def = (cur.def ?? {}) as { type?: string; innerType?: Node; in?: Node };
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return cur;
    cur = inner;
  }
  return cur;
}

/** The keys an object schema allows at `path` (array indexes and record keys step into their element). */
export function knownKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let cur = unwrap(schema as Node);
  for (const seg of path) {
    const def = (cur.def ?? {}) as { type?: string; element?: Node; valueType?: Node };
    if (def.type === 'array' && def.element) cur = unwrap(def.element);
    else if (def.type === 'record' && def.valueType) cur = unwrap(def.valueType);
    else if (cur.shape && typeof seg === 'string' && cur.shape[seg]) cur = unwrap(cur.shape[seg] as Node);
    else return [];
  }
  return cur.shape ? Object.keys(cur.shape) : [];
}

/** The known key `key` is most likely a misspelling of, or undefined when none is close. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = leven(key.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { k, d };
  }
  // Close: at most a third of the longer name differs (test.comand → command; max_turn → max_turns).
  return best && best.d <= Math.max(1, Math.floor(Math.max(key.length, best.k.length) / 3)) ? best.k : undefined;
}
