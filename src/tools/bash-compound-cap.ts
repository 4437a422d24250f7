import type { ToolResult } from './define-tool.js';

/** The most commands one Bash call may chain (with ;, &&, ||, |, & or line breaks). */
export const MAX_COMPOUND_COMMANDS = 50;

/** Operators that start another command, longest first. */
const SEPARATORS = ['&&', '||', '|&', ';;', ';', '|', '&', '\n'];

/** Skips a quoted string starting at i (the quote); returns the index after its closing quote. */
function skipQuoted(command: string, i: number): number {
  const q = command.charAt(i);
  let j = i + 1;
  while (j < command.length && command.charAt(j) !== q) j += q === '"' && command.charAt(j) === '\\' ? 2 : 1;
  return j + 1;
}

/**
 * How many commands a command line chains: one plus every list, pipeline or background operator outside
 * quotes and comments. A count, not a parse: an operator inside a subshell counts too (that only errs
 * towards refusing). Redirections such as `2>&1` and `&>` are not separators.
 */
export function countCommands(command: string): number {
  let count = 1;
  let words = false;
  let i = 0;
  while (i < command.length) {
    const c = command.charAt(i);
    const op = SEPARATORS.find((s) => command.startsWith(s, i));
    if (c === '#' && (i === 0 || /\s/.test(command.charAt(i - 1)))) i = nextLine(command, i);
    else if (isRedirection(command, i)) i += 2;
    else if (op) {
      // An operator right after another (";\n") or at the end starts no new command.
      if (words && command.slice(i + op.length).trim() !== '') count++;
      words = false;
      i += op.length;
    } else {
      if (!/\s/.test(c)) words = true;
      i = c === '\\' ? i + 2 : c === "'" || c === '"' || c === '`' ? skipQuoted(command, i) : i + 1;
    }
  }
  return count;
}

function nextLine(command: string, i: number): number {
  const end = command.indexOf('\n', i);
  return end === -1 ? command.length : end;
}

/** `>&`, `<&` and `&>` belong to a redirection, not to a list. */
function isRedirection(command: string, i: number): boolean {
  const two = command.slice(i, i + 2);
  return two === '>&' || two === '<&' || two === '&>';
}

/** The refusal for a command line that chains more than MAX_COMPOUND_COMMANDS commands; undefined when within. */
export function compoundCap(command: string): ToolResult | undefined {
  const n = countCommands(command);
  if (n <= MAX_COMPOUND_COMMANDS) return undefined;
  return {
    forModel: `Refused: this command chains ${n} commands, over the limit of ${MAX_COMPOUND_COMMANDS} per Bash call. Nothing was run. Split it into several Bash calls, or put the steps in a script file and run that.`,
    isError: true,
    errorKind: 'denied',
  };
}
