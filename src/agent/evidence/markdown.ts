/** Markdown escaping for untrusted strings in the summary (GitHub-flavoured, tables included). */
import { oneLine, truncate } from './text.js';

/** Plain text: one line, capped, Markdown punctuation escaped, HTML and @mentions neutralized. */
export function mdText(text: string, max = 300): string {
  return escapeText(truncate(oneLine(text), max));
}

function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>|~&#!]/g, (c) => `\\${c}`).replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
}

/**
 * A code span: one line, capped; the fence is one backtick longer than the longest backtick run inside,
 * and `|` is escaped when the span sits in a table cell (GFM splits cells before parsing code spans).
 */
export function mdCode(text: string, max = 120, inTable = true): string {
  let body = truncate(oneLine(text), max);
  if (body === '') return '';
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  if (inTable) body = body.replace(/\|/g, '\\|');
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A code span in untrusted text: a backtick run, content without that run, the same run closing it. */
const CODE_SPAN = /(`+)(?!`)(.+?)(?<!`)\1(?!`)/g;

/**
 * Text that may quote code the way gate details do (`npm test`, `test/a.test.js`): each complete code span
 * is rendered as code (mdCode, so a `|` inside cannot split a table cell), everything else as mdText. An
 * unmatched backtick stays escaped text. One line, capped at `max` characters of source text.
 */
export function mdTextWithCode(text: string, max = 300): string {
  const src = truncate(oneLine(text), max);
  let out = '';
  let at = 0;
  for (const m of src.matchAll(CODE_SPAN)) {
    const inner = m[2]!.replace(/^ (.*\S.*) $/, '$1');
    out += escapeText(src.slice(at, m.index)) + mdCode(inner, max);
    at = m.index + m[0].length;
  }
  return out + escapeText(src.slice(at));
}
