export const MAX_LINE_CHARS = 2000;

/** cat -n style: right-aligned line number, a tab, the text (cut past MAX_LINE_CHARS). */
export function numberLine(n: number, text: string): string {
  const body = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut: ${text.length} characters]` : text;
  return `${String(n).padStart(6)}\t${body}`;
}

/** Split file text into lines without the trailing empty line a final newline makes; CR of CRLF dropped. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Numbered lines [from, to] (1-based, inclusive) of `lines`. */
export function numberedSlice(lines: string[], from: number, to: number): string {
  const out: string[] = [];
  for (let i = Math.max(1, from); i <= Math.min(lines.length, to); i++) out.push(numberLine(i, lines[i - 1] ?? ''));
  return out.join('\n');
}
