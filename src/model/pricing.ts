/**
 * USD per million tokens by model family. Matching is by substring of the model id, first rule wins, so
 * dated ids, aliases and suffixes ("claude-sonnet-4-5-20250929", "claude-opus-4-8[1m]") find their family.
 * Cache writes (5-minute) cost 1.25× input and cache reads 0.1× input. An unknown model is priced as
 * Sonnet with known:false, so a budget still holds.
 */
import type { Usage } from './model-client.js';

export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Which rule matched ('sonnet' for an unknown model). */
  family: string;
  known: boolean;
}

interface Rule {
  family: string;
  match: RegExp;
  input: number;
  output: number;
}

// Most specific first. Haiku 5.5 has a second, higher band for prompts over 100k tokens; the lower band is used.
const RULES: Rule[] = [
  { family: 'fable', match: /fable|mythos/, input: 10, output: 50 },
  { family: 'opus-5-5', match: /opus-5-5/, input: 4, output: 20 },
  { family: 'opus-legacy', match: /claude-3-opus|opus-3|opus-4-1|opus-4-0|opus-4-2025|opus-4$/, input: 15, output: 75 },
  { family: 'opus', match: /opus/, input: 5, output: 25 },
  { family: 'sonnet-5', match: /sonnet-5/, input: 2, output: 10 },
  { family: 'sonnet', match: /sonnet/, input: 3, output: 15 },
  { family: 'haiku-5', match: /haiku-5/, input: 0.1, output: 0.5 },
  { family: 'haiku-3-5', match: /haiku-3-5|3-5-haiku/, input: 0.8, output: 4 },
  { family: 'haiku-3', match: /claude-3-haiku|haiku-3/, input: 0.25, output: 1.25 },
  { family: 'haiku', match: /haiku/, input: 1, output: 5 },
];

const FALLBACK: Rule = { family: 'sonnet', match: /sonnet/, input: 3, output: 15 };

export function priceFor(model: string): Price {
  const id = model.toLowerCase().replace(/\[[^\]]*\]$/, '');
  const rule = RULES.find((r) => r.match.test(id));
  const r = rule ?? FALLBACK;
  return {
    input: r.input,
    output: r.output,
    cacheWrite: r.input * 1.25,
    cacheRead: r.input * 0.1,
    family: r.family,
    known: rule !== undefined,
  };
}

export function costUsd(model: string, usage: Usage): number {
  const p = priceFor(model);
  const micro =
    usage.inputTokens * p.input +
    usage.outputTokens * p.output +
    usage.cacheWriteTokens * p.cacheWrite +
    usage.cacheReadTokens * p.cacheRead;
  return micro / 1_000_000;
}
