import type { Parser } from 'web-tree-sitter';
import { singleCommand } from './single-command.js';

/**
 * A Bash command is a test run only when it IS the test command, with arguments: one simple command
 * (no list, pipeline, `||`/`&&`/`;` chain, subshell, redirect or expansion that could hide or replace
 * the exit status, or print a summary of its own) whose words start with the test command's words
 * (and whose variable assignments are the test command's own); a test command that is a list itself
 * counts only when the call is exactly it. So `npm test -- -t foo` counts;
 * `npm test | tail`, `npm test; true`, `npm test > log` and `printf '5 passed'` do not.
 */
const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');

export function isTestCommand(command: string, testCommand: string | undefined, parser: Parser): boolean {
  if (testCommand === undefined || testCommand.trim() === '') return false;
  const t = singleCommand(parser, testCommand);
  // A test command that is itself a list (`make build && make test`) counts only when run exactly as configured.
  if (!t) return norm(command) === norm(testCommand);
  const c = singleCommand(parser, command);
  if (!c) return false;
  const tw = t.words.map((w) => w.value ?? '');
  const cw = c.words.map((w) => w.value ?? '');
  if (cw.length < tw.length || tw.some((w, i) => cw[i] !== w)) return false;
  const assigns = (x: typeof t) => x.assignments.map((a) => `${a.name}=${a.value?.value ?? ''}`).join('\0');
  return assigns(c) === assigns(t);
}
