/**
 * Rust's inline tests: the items a `#[cfg(test)]` attribute (or a `cfg(...)` predicate that needs
 * `test`, such as `cfg(all(test, unix))`) compiles only into the test build. They live in the shipped
 * source files (`src/lib.rs`), yet they are tests: an expected literal changed there is a changed
 * expectation, not a fix. Scanned by Rust's lexical rules (line and nested block comments, strings, raw
 * strings, byte strings, char literals against lifetimes), not by a pattern over lines.
 */

export interface Range {
  /** Offset of the first attribute of the item. */
  start: number;
  /** Offset just past the item (its closing `}` or `;`, and the rest of that line's newline). */
  end: number;
}

/** Offset just past the literal, comment or token starting at `i`, or `i` when none starts there. */
function skipLexeme(s: string, i: number): number {
  const c = s[i];
  const n = s[i + 1];
  if (c === '/' && n === '/') {
    const e = s.indexOf('\n', i);
    return e < 0 ? s.length : e;
  }
  if (c === '/' && n === '*') {
    let depth = 1;
    let j = i + 2;
    while (j < s.length && depth > 0) {
      if (s[j] === '/' && s[j + 1] === '*') {
        depth++;
        j += 2;
      } else if (s[j] === '*' && s[j + 1] === '/') {
        depth--;
        j += 2;
      } else j++;
    }
    return j;
  }
  const raw = /^(?:b|c)?r(#*)"/.exec(s.slice(i, i + 260));
  if (raw && (i === 0 || !/[\w]/.test(s[i - 1] ?? ''))) {
    const close = `"${raw[1] ?? ''}`;
    const e = s.indexOf(close, i + raw[0].length);
    return e < 0 ? s.length : e + close.length;
  }
  if (c === '"' || ((c === 'b' || c === 'c') && n === '"' && !/\w/.test(s[i - 1] ?? ''))) {
    let j = c === '"' ? i + 1 : i + 2;
    while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === "'" || (c === 'b' && n === "'" && !/\w/.test(s[i - 1] ?? ''))) {
    // A char literal ('a', '\n', '\u{1F600}', b'x') rather than a lifetime ('a, 'static).
    const m = /^b?'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'/u.exec(s.slice(i, i + 16));
    if (m) return i + m[0].length;
  }
  return i;
}

/** Offset past the attribute starting at `i` (`#[...]` with nested brackets), and its text. */
function readAttribute(s: string, i: number): { end: number; text: string } | undefined {
  if (s[i] !== '#' || s[i + 1] === '!') return undefined;
  let j = i + 1;
  while (/\s/.test(s[j] ?? '')) j++;
  if (s[j] !== '[') return undefined;
  let depth = 0;
  for (; j < s.length; j++) {
    const k = skipLexeme(s, j);
    if (k > j) {
      j = k - 1;
      continue;
    }
    if (s[j] === '[') depth++;
    else if (s[j] === ']' && --depth === 0) return { end: j + 1, text: s.slice(i, j + 1) };
  }
  return undefined;
}

/** Whether an attribute compiles its item only into the test build. */
function isTestOnly(attr: string): boolean {
  const m = /^#\s*\[\s*cfg\s*\(([\s\S]*)\)\s*\]$/.exec(attr);
  if (!m) return false;
  const pred = (m[1] ?? '').replace(/\s+/g, '');
  if (pred === 'test') return true;
  // all(test, …) needs test; any(…)/not(…) do not make an item test-only.
  return /^all\((?:[^()]*,)?test(?:,[^()]*)?\)$/.test(pred);
}

/** Offset just past the item starting at `i`: its matching `}` when a brace opens first, else its `;`. */
function itemEnd(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const k = skipLexeme(s, j);
    if (k > j) {
      j = k - 1;
      continue;
    }
    const c = s[j];
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0 && c === '}') return j + 1;
    } else if (c === ';' && depth === 0) return j + 1;
  }
  return s.length;
}

/** The byte ranges of the file's `#[cfg(test)]` items (outermost only), in order. */
export function cfgTestRanges(text: string): Range[] {
  const out: Range[] = [];
  let i = 0;
  while (i < text.length) {
    const k = skipLexeme(text, i);
    if (k > i) {
      i = k;
      continue;
    }
    const attr = text[i] === '#' ? readAttribute(text, i) : undefined;
    if (!attr) {
      i++;
      continue;
    }
    // The item's whole attribute list, then the item itself.
    let j = attr.end;
    let testOnly = isTestOnly(attr.text);
    for (;;) {
      while (/\s/.test(text[j] ?? '')) j++;
      const more = text[j] === '#' ? readAttribute(text, j) : undefined;
      if (!more) break;
      testOnly ||= isTestOnly(more.text);
      j = more.end;
    }
    if (!testOnly) {
      i = attr.end;
      continue;
    }
    let end = itemEnd(text, j);
    if (text[end] === '\n') end++;
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    const start = /^[ \t]*$/.test(text.slice(lineStart, i)) ? lineStart : i;
    out.push({ start, end });
    i = end;
  }
  return out;
}

/** The text without its test-only items. */
export function withoutTests(text: string): string {
  let out = '';
  let at = 0;
  for (const r of cfgTestRanges(text)) {
    out += text.slice(at, r.start);
    at = r.end;
  }
  return out + text.slice(at);
}

/** The test-only items of the text, joined. */
export function testsOf(text: string): string {
  return cfgTestRanges(text)
    .map((r) => text.slice(r.start, r.end))
    .join('\n');
}

/**
 * `code`'s non-test items with `tests`' test-only items: the kept run's view of a Rust file is the
 * commit's code with the base's inline tests; the reversion run's is the base's code with the commit's
 * inline tests. Test items go at the end of the file, where Rust's item order does not matter.
 */
export function spliceTests(code: string, tests: string): string {
  const body = withoutTests(code).replace(/\s*$/, '\n');
  const t = testsOf(tests);
  return t ? `${body}\n${t.replace(/\s*$/, '\n')}` : body;
}
