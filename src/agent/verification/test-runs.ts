const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');

/**
 * A Bash command is a test run when it starts with `test.command` (both trimmed, runs of whitespace
 * made one space) and the next character ends a word: whitespace, the end, or a shell operator
 * (`;`, `|`, `&`, `<`, `>`). So `npm test -- -t foo` and `npm test | tail` count; `npm testing` does not.
 */
export function isTestCommand(command: string, testCommand: string | undefined): boolean {
  if (testCommand === undefined) return false;
  const t = norm(testCommand);
  if (t === '') return false;
  const c = norm(command);
  if (!c.startsWith(t)) return false;
  const next = c.charAt(t.length);
  return next === '' || /[\s;|&<>]/.test(next);
}
