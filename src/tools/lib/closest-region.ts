function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of character bigrams of two trimmed lines (1 = same text). */
function similarity(a: string, b: string, cache: Map<string, Map<string, number>>): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const get = (s: string) => {
    let g = cache.get(s);
    if (!g) cache.set(s, (g = bigrams(s)));
    return g;
  };
  const ga = get(a);
  const gb = get(b);
  let common = 0;
  for (const [g, n] of ga) common += Math.min(n, gb.get(g) ?? 0);
  return (2 * common) / (a.length - 1 + (b.length - 1));
}

/**
 * The window of file lines that best matches the lines of `needle` (ignoring indentation),
 * as a 1-based [start, end] range, or undefined when nothing is even slightly alike.
 */
export function closestRegion(fileLines: string[], needle: string): { start: number; end: number; score: number } | undefined {
  const want = needle
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.trim());
  while (want.length > 1 && want[want.length - 1] === '') want.pop();
  const have = fileLines.map((l) => l.trim());
  const n = want.length;
  const cheap = have.length * n > 400_000;
  const cache = new Map<string, Map<string, number>>();
  let best: { start: number; end: number; score: number } | undefined;
  for (let i = 0; i + Math.min(n, have.length) <= have.length; i++) {
    let score = 0;
    for (let j = 0; j < n && i + j < have.length; j++) {
      const a = have[i + j] ?? '';
      const b = want[j] ?? '';
      score += cheap ? (a === b ? 1 : 0) : similarity(a, b, cache);
    }
    score /= n;
    if (!best || score > best.score) best = { start: i + 1, end: Math.min(have.length, i + n), score };
  }
  return best && best.score >= 0.3 ? best : undefined;
}
