import type { Node, Parser } from 'web-tree-sitter';
import { wordOf, type Word } from './words.js';

export interface Assignment {
  name: string;
  value: Word | null;
}

/** One simple command: `FOO=1 git diff --stat`. `words[0]` is the command name. */
export interface SimpleCommand {
  text: string;
  assignments: Assignment[];
  words: Word[];
}

export interface Redirect {
  op: string;
  /** The file (null for fd duplication like `2>&1` or `>&-`). */
  target: Word | null;
  text: string;
}

export type BashAnalysis =
  | {
      ok: true;
      commands: SimpleCommand[];
      redirects: Redirect[];
      /** Variables set outside a command prefix: `X=1;`, `export X=1`, `for X in ...`. */
      variables: Assignment[];
    }
  | { ok: false; reason: string };

const DENIED_NODES: Record<string, string> = {
  command_substitution: 'command substitution ($(...) or backticks) is not allowed; run the inner command on its own first',
  process_substitution: 'process substitution (<(...) or >(...)) is not allowed; write to a file in the worktree instead',
  function_definition: 'defining shell functions is not allowed; run the commands directly',
  ansi_c_string: "ANSI-C quoting ($'...') is not allowed; use a plain quoted string",
};

class Denied extends Error {}

function assignmentOf(n: Node): Assignment {
  const name = n.childForFieldName('name')?.text ?? '';
  const v = n.childForFieldName('value');
  return { name, value: v ? wordOf(v) : null };
}

function visit(n: Node, out: { commands: SimpleCommand[]; redirects: Redirect[]; variables: Assignment[] }): void {
  if (n.isError || n.type === 'ERROR') throw new Denied(`the command does not parse near "${n.text.slice(0, 40)}"; write plain shell`);
  if (n.isMissing) throw new Denied(`the command is incomplete (missing "${n.type}"); close every quote, bracket and block`);
  const deniedWhy = DENIED_NODES[n.type];
  if (deniedWhy) throw new Denied(deniedWhy);
  switch (n.type) {
    case '&':
      throw new Denied('background jobs (&) are not allowed; run the command in the foreground');
    case '|&':
      break;
    case 'expansion':
      if (/@[A-Za-z]/.test(n.text)) throw new Denied(`the expansion ${n.text} may run code; use a plain $NAME`);
      break;
    case 'command':
      out.commands.push(commandOf(n));
      break;
    case 'variable_assignment':
      if (n.parent?.type !== 'command') out.variables.push(assignmentOf(n));
      break;
    case 'declaration_command':
      for (const c of n.namedChildren) {
        if (c?.type === 'variable_name') out.variables.push({ name: c.text, value: null });
      }
      break;
    case 'for_statement': {
      const v = n.childForFieldName('variable');
      if (v) out.variables.push({ name: v.text, value: null });
      break;
    }
    case 'file_redirect': {
      const op = n.children.find((c) => c !== null && !c.isNamed)?.text ?? '';
      const dest = n.childForFieldName('destination');
      const dup = (op === '>&' || op === '<&') && (dest === null || /^(\d+|-)$/.test(dest.text));
      out.redirects.push({ op, target: dup || dest === null ? null : wordOf(dest), text: n.text });
      break;
    }
  }
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c) visit(c, out);
  }
}

function commandOf(n: Node): SimpleCommand {
  const assignments: Assignment[] = [];
  const words: Word[] = [];
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (!c) continue;
    const field = n.fieldNameForChild(i);
    if (c.type === 'variable_assignment') assignments.push(assignmentOf(c));
    else if (field === 'name' || field === 'argument') words.push(wordOf(c));
  }
  return { text: n.text, assignments, words };
}

/**
 * Split a command line into simple commands (lists, pipelines, subshells, blocks, loops, heredoc
 * pipelines alike), and refuse constructs that hide what runs. A newline is a list separator like `;`.
 */
export function analyzeBash(parser: Parser, command: string): BashAnalysis {
  const stripped = command.replace(/\\/g, '');
  if (/\$\(|`|[<>]\(/.test(stripped)) {
    return { ok: false, reason: 'command or process substitution syntax ($(, backticks, <(, >() is not allowed, even quoted; run the inner command on its own first' };
  }
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: 'the command could not be parsed' };
  try {
    const out = { commands: [] as SimpleCommand[], redirects: [] as Redirect[], variables: [] as Assignment[] };
    if (tree.rootNode.hasError) {
      const bad = firstError(tree.rootNode);
      if (!bad) return { ok: false, reason: 'the command does not parse; write plain shell' };
      visit(bad, out);
    }
    visit(tree.rootNode, out);
    return { ok: true, ...out };
  } catch (e) {
    if (e instanceof Denied) return { ok: false, reason: e.message };
    throw e;
  } finally {
    tree.delete();
  }
}

function firstError(n: Node): Node | null {
  if (n.isError || n.isMissing || n.type === 'ERROR') return n;
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c?.hasError || c?.isMissing) {
      const f = firstError(c);
      if (f) return f;
    }
  }
  return null;
}
