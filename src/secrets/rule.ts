/** A token pattern: finds the spans of secrets in a text. */
export interface TokenRule {
  /** Stable name (reported by looksLikeSecretContent, listed in docs/security.md). */
  readonly id: string;
  /** Where the pattern comes from: the maintained rule set it wraps, or the format's documentation. */
  readonly source: string;
  /**
   * True when a match is a credential with high confidence (a tracked file holding one is masked);
   * false for shapes that are redacted from artifacts but too common in ordinary code to judge a file by.
   */
  readonly confident: boolean;
  /** The [start, end) spans of the secret parts in `text` (what surrounds them, e.g. a key name, is kept). */
  find(text: string): Array<readonly [number, number]>;
}

/**
 * A rule from one regular expression. With `group`, only that capture group is the secret (the rest of
 * the match, e.g. `Authorization: Bearer ` or `https://`, stays readable).
 */
export function regexRule(id: string, source: string, confident: boolean, re: RegExp, group = 0): TokenRule {
  const flags = [...new Set(`${re.flags}gd`)].join('');
  return {
    id,
    source,
    confident,
    find(text) {
      const spans: Array<readonly [number, number]> = [];
      for (const m of text.matchAll(new RegExp(re.source, flags))) {
        const at = m.indices?.[group];
        if (at && at[1] > at[0]) spans.push(at);
      }
      return spans;
    },
  };
}
