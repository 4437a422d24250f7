/**
 * Quote-style tolerance for Edit: models often type straight quotes where a file has curly ones (prose,
 * strings in UI text) or the other way round. Every mapping here is one UTF-16 unit to one, so an index
 * in the normalised text is the same index in the original.
 */

const CURLY_SINGLE = /[\u2018\u2019]/g;
const CURLY_DOUBLE = /[\u201C\u201D]/g;

/** Curly single and double quotes replaced by their straight forms (same length). */
export function normalizeQuotes(s: string): string {
  return s.replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"');
}

const hasCurly = (s: string, re: RegExp): boolean => new RegExp(re.source).test(s);

/** An opening quote follows the start of the text, white space or an opening bracket/dash. */
function opens(text: string, index: number): boolean {
  const before = index === 0 ? '' : text.charAt(index - 1);
  return before === '' || /[\s([{\u2014\u2013-]/.test(before);
}

function curlify(text: string, straight: string, open: string, close: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    out += c === straight ? (opens(text, i) ? open : close) : c;
  }
  return out;
}

/**
 * new_string in the quote style of the text it replaces: where the file's matched text uses curly
 * quotes of a kind, straight ones of that kind become curly (opening after a space or bracket, else
 * closing, so an apostrophe is a closing single quote); where it uses straight ones, curly become straight.
 */
export function applyQuoteStyle(newText: string, fileText: string): string {
  let out = newText;
  if (hasCurly(fileText, CURLY_DOUBLE)) out = curlify(out, '"', '\u201C', '\u201D');
  else if (fileText.includes('"')) out = out.replace(CURLY_DOUBLE, '"');
  if (hasCurly(fileText, CURLY_SINGLE)) out = curlify(out, "'", '\u2018', '\u2019');
  else if (fileText.includes("'")) out = out.replace(CURLY_SINGLE, "'");
  return out;
}
