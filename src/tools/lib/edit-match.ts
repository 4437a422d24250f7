import { applyQuoteStyle, normalizeQuotes } from './quote-style.js';

/** Where old_string matches a file, and the text that replaces each match. */
export interface EditMatch {
  /** Start indexes of the matches in the file (empty: no match). */
  at: number[];
  /** Length of one match in the file. */
  length: number;
  /** new_string as it goes into the file (its line endings and quote style). */
  replacement: string;
  /** True when the match needed curly/straight quote normalisation. */
  quotesNormalized: boolean;
}

export function positions(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

const toCrlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');

/** True when most line breaks of the text are CRLF. */
function isCrlf(raw: string): boolean {
  const crlfCount = raw.split('\r\n').length - 1;
  return crlfCount > 0 && crlfCount >= raw.split('\n').length - 1 - crlfCount;
}

/**
 * Finds old_string in the file: exactly; else with the file's CRLF line endings; else after normalising
 * curly/straight quotes on both sides, in which case the replacement takes the quote style of the text it
 * replaces (the file's, not the model's).
 */
export function matchEdit(raw: string, oldString: string, newString: string): EditMatch {
  const crlf = isCrlf(raw);
  let oldS = oldString;
  let newS = newString;
  let at = positions(raw, oldS);
  if (crlf && at.length === 0 && !oldString.includes('\r')) {
    oldS = toCrlf(oldString);
    newS = toCrlf(newString);
    at = positions(raw, oldS);
  } else if (crlf && !newString.includes('\r')) {
    newS = toCrlf(newString);
  }
  if (at.length > 0) return { at, length: oldS.length, replacement: newS, quotesNormalized: false };
  const loose = positions(normalizeQuotes(raw), normalizeQuotes(oldS));
  const first = loose[0];
  if (first === undefined) return { at: [], length: oldS.length, replacement: newS, quotesNormalized: false };
  const matched = raw.slice(first, first + oldS.length);
  return { at: loose, length: oldS.length, replacement: applyQuoteStyle(newS, matched), quotesNormalized: true };
}

/** The file with the matches (all, or the first) replaced. */
export function applyEdit(raw: string, m: EditMatch, all: boolean): string {
  const at = all ? m.at : m.at.slice(0, 1);
  let out = '';
  let from = 0;
  for (const i of at) {
    out += raw.slice(from, i) + m.replacement;
    from = i + m.length;
  }
  return out + raw.slice(from);
}
