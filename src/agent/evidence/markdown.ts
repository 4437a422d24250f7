/** Markdown escaping for untrusted strings in the summary (GitHub-flavoured, tables included). */
import { oneLine, truncate } from './text.js';

/** Plain text: one line, capped, Markdown punctuation escaped, HTML and @mentions neutralized. */
export function mdText(text: string, max = 300): string {
  return truncate(oneLine(text), max)
    .replace(/[\\`*_[\]<>|~&#!]/g, (c) => `\\${c}`)
    .replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
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
