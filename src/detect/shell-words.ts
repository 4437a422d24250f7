/**
 * A small reading of a command line, enough to see which programs a package.json script or a test
 * command calls: simple commands split at `&&`, `||`, `;`, `|`, `&` and newlines, each as its words
 * with quotes removed. Not a shell: expansions stay as written, subshell parentheses are dropped.
 */
export function commandSegments(command: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length) segments.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] ?? '';
    if (ch === "'" || ch === '"') {
      const close = command.indexOf(ch, i + 1);
      const end = close === -1 ? command.length : close;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '\\' && i + 1 < command.length) {
      word += command[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (/[;&|\n]/.test(ch)) {
      endSegment();
    } else if (/[\s()]/.test(ch)) {
      endWord();
    } else {
      word += ch;
      inWord = true;
    }
  }
  endSegment();
  return segments;
}

/** The words after leading `NAME=value` assignments. */
export function withoutAssignments(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? '')) i++;
  return words.slice(i);
}
