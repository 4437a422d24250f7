import type { Node, Parser } from 'web-tree-sitter';
import { wordOf, type Word } from './words.js';

export interface Assignment {
  name: string;
  value: Word | null;
  /** `export NAME`, `declare -x NAME`: the value reaches the environment of later commands. */
  exported?: boolean;
}

/** The control flow of a line, enough to follow `cd` (see cwd-flow.ts). Numbers index `commands` / `redirects`. */
export type Flow =
  | { t: 'cmd'; i: number }
  | { t: 'seq'; items: Flow[] }
  | { t: 'and' | 'or'; l: Flow; r: Flow }
  | { t: 'sub'; body: Flow }
  | { t: 'pipe'; parts: Flow[] }
  | { t: 'redir'; redirects: number[]; body: Flow }
  | { t: 'loop'; body: Flow }
  | { t: 'not'; body: Flow };

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
      flow: Flow;
    }
  | { ok: false; reason: string };

const DENIED_NODES: Record<string, string> = {
  command_substitution: 'command substitution ($(...) or backticks) is not allowed; run the inner command on its own first',
  process_substitution: 'process substitution (<(...) or >(...)) is not allowed; write to a file in the worktree instead',
  function_definition: 'defining shell functions is not allowed; run the commands directly',
  ansi_c_string: "ANSI-C quoting ($'...') is not allowed; use a plain quoted string",
};

class Denied extends Error {}

type Out = {
  commands: SimpleCommand[];
  redirects: Redirect[];
  variables: Assignment[];
  cmdAt: Map<number, number>;
  redirAt: Map<number, number>;
};

const ARITH_OK = new Set([
  'number',
  'binary_expression',
  'unary_expression',
  'parenthesized_expression',
  'ternary_expression',
  'postfix_expression',
]);

/** Arithmetic with only literal numbers inside: bash evaluates names (and their values, recursively, array subscripts and all) as code. */
function literalArithmetic(n: Node): boolean {
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (!ARITH_OK.has(c.type) || !literalArithmetic(c)) return false;
  }
  return true;
}

const ARITH_REFUSAL =
  'arithmetic evaluation of names or expansions is not allowed (bash evaluates array subscripts in them as code: (( )), $(( )), [[ -eq ]], ${s:off}, declare -i); use literal numbers or test with [ ]';

function checkExpansion(n: Node): void {
  if (/@[A-Za-z]/.test(n.text)) throw new Denied(`the expansion ${n.text} may run code; use a plain $NAME`);
  const m = /^\$\{[!#]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])(\[[^\]]*\])?(.*)\}$/s.exec(n.text);
  const rest = m?.[3] ?? '';
  if (/^:(?![-=+?])|^:\s/.test(rest) && /[^\d\s:+\-*/()]/.test(rest.slice(1))) throw new Denied(ARITH_REFUSAL);
}

function checkSubscript(n: Node): void {
  const idx = n.childForFieldName('index');
  if (idx && !/^(\d+|@|\*)$/.test(idx.text))
    throw new Denied(`the array subscript [${idx.text}] is evaluated as arithmetic (code); use a literal number`);
}

const INT_OPS = /^-(eq|ne|lt|le|gt|ge)$/;

function checkTestCommand(n: Node): void {
  const walk = (e: Node | null): void => {
    if (!e) return;
    if (e.type === 'binary_expression') {
      const op = e.childForFieldName('operator')?.text ?? '';
      if (INT_OPS.test(op)) {
        for (const side of [e.childForFieldName('left'), e.childForFieldName('right')]) {
          if (side && !/^-?\d+$/.test(side.text)) throw new Denied(ARITH_REFUSAL);
        }
      }
    }
    if (e.type === 'unary_expression' && e.child(0)?.text === '-v' && e.text.includes('[')) throw new Denied(ARITH_REFUSAL);
    for (const c of e.namedChildren) walk(c);
  };
  walk(n);
}

function checkDeclaration(n: Node, out: Out): void {
  const keyword = n.child(0)?.text ?? '';
  let exported = keyword === 'export';
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'word' && c.text.startsWith('-')) {
      if (/[in]/.test(c.text.slice(1)))
        throw new Denied(`${keyword} ${c.text}: integer attributes evaluate arithmetic and namerefs redirect other names; not allowed`);
      if (c.text.includes('x')) exported = true;
    }
  }
  for (const c of n.namedChildren) {
    if (c?.type === 'variable_name') out.variables.push({ name: c.text, value: null, exported });
    if (c?.type === 'variable_assignment') out.variables.push({ ...assignmentOf(c), exported });
  }
}

/** Builtins that evaluate an array subscript given as an argument (`read 'a[$(id)]'`, `unset 'a[$(id)]'`). */
const SUBSCRIPT_ARGS = new Set(['read', 'unset', 'wait', 'printf', 'test', '[', 'local', 'declare', 'typeset']);

function assignmentOf(n: Node): Assignment {
  const name = n.childForFieldName('name')?.text ?? '';
  const v = n.childForFieldName('value');
  return { name, value: v ? wordOf(v) : null };
}

function visit(n: Node, out: Out): void {
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
      checkExpansion(n);
      break;
    case 'subscript':
      checkSubscript(n);
      break;
    case 'arithmetic_expansion':
      if (!literalArithmetic(n)) throw new Denied(ARITH_REFUSAL);
      break;
    case 'compound_statement':
      if (n.child(0)?.text === '((' && !literalArithmetic(n)) throw new Denied(ARITH_REFUSAL);
      break;
    case 'test_command':
      checkTestCommand(n);
      break;
    case 'c_style_for_statement':
      if (
        /[A-Za-z_$]/.test(
          n.namedChildren
            .filter((c) => c?.type !== 'do_group')
            .map((c) => c?.text ?? '')
            .join(' '),
        )
      )
        throw new Denied(ARITH_REFUSAL);
      break;
    case 'unset_command':
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.text.includes('[')) throw new Denied('unset with an array subscript evaluates it as arithmetic (code); not allowed');
        if (!c.text.startsWith('-')) out.variables.push({ name: c.text.replace(/^['"]|['"]$/g, ''), value: null });
      }
      break;
    case 'command': {
      const c = commandOf(n);
      const name = c.words[0]?.value ?? '';
      if (SUBSCRIPT_ARGS.has(name) && c.words.slice(1).some((w) => w.text.includes('[') && !(name === '[' && w.text === '['))) {
        throw new Denied(`${name} with an array subscript in its arguments evaluates it as arithmetic (code); not allowed`);
      }
      out.cmdAt.set(n.id, out.commands.length);
      out.commands.push(c);
      break;
    }
    case 'variable_assignment':
      if (n.parent?.type !== 'command' && n.parent?.type !== 'declaration_command') out.variables.push(assignmentOf(n));
      break;
    case 'declaration_command':
      checkDeclaration(n, out);
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
      out.redirAt.set(n.id, out.redirects.length);
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

/** Where `$(`, backticks and `<(`/`>(` cannot expand: single-quoted strings and quoted heredoc bodies. */
function inertRanges(n: Node, out: Array<[number, number]>): void {
  if (n.type === 'raw_string') {
    out.push([n.startIndex, n.endIndex]);
    return;
  }
  if (n.type === 'heredoc_redirect') {
    const start = n.namedChildren.find((c) => c?.type === 'heredoc_start');
    const body = n.namedChildren.find((c) => c?.type === 'heredoc_body');
    if (start && body && /['"\\]/.test(start.text)) out.push([body.startIndex, body.endIndex]);
  }
  for (const c of n.namedChildren) if (c) inertRanges(c, out);
}

/** The control flow of the parsed line (what cwd-flow.ts follows `cd` through). */
function flowOf(n: Node, out: Out): Flow {
  const kids = (): Flow[] => n.namedChildren.filter((c): c is Node => c !== null).map((c) => flowOf(c, out));
  switch (n.type) {
    case 'command': {
      const i = out.cmdAt.get(n.id);
      return i === undefined ? { t: 'seq', items: [] } : { t: 'cmd', i };
    }
    case 'list': {
      const op = n.children.find((c) => c !== null && !c.isNamed)?.text;
      const [l, r] = n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
      if (!l || !r || (op !== '&&' && op !== '||')) return { t: 'seq', items: kids() };
      return { t: op === '&&' ? 'and' : 'or', l: flowOf(l, out), r: flowOf(r, out) };
    }
    case 'pipeline':
      return { t: 'pipe', parts: kids() };
    case 'subshell':
      return { t: 'sub', body: { t: 'seq', items: kids() } };
    case 'negated_command':
      return { t: 'not', body: { t: 'seq', items: kids() } };
    case 'redirected_statement': {
      const redirects: number[] = [];
      const body: Flow[] = [];
      for (const c of n.namedChildren) {
        if (!c) continue;
        const i = out.redirAt.get(c.id);
        if (i !== undefined) redirects.push(i);
        else body.push(flowOf(c, out));
      }
      return { t: 'redir', redirects, body: { t: 'seq', items: body } };
    }
    case 'if_statement':
    case 'while_statement':
    case 'for_statement':
    case 'c_style_for_statement':
    case 'case_statement':
      return { t: 'loop', body: { t: 'seq', items: kids() } };
    default:
      return { t: 'seq', items: kids() };
  }
}

/**
 * Split a command line into simple commands (lists, pipelines, subshells, blocks, loops, heredoc
 * pipelines alike), and refuse constructs that hide what runs. A newline is a list separator like `;`.
 */
export function analyzeBash(parser: Parser, command: string): BashAnalysis {
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: 'the command could not be parsed' };
  try {
    const inert: Array<[number, number]> = [];
    inertRanges(tree.rootNode, inert);
    let live = command;
    for (const [a, b] of inert) live = live.slice(0, a) + ' '.repeat(b - a) + live.slice(b);
    if (/\$\((?!\()|`|[<>]\(/.test(live.replace(/\\/g, ''))) {
      return {
        ok: false,
        reason:
          'command or process substitution ($(, backticks, <(, >() is not allowed; run the inner command on its own first (inside single quotes it is plain text)',
      };
    }
    const out: Out = { commands: [], redirects: [], variables: [], cmdAt: new Map(), redirAt: new Map() };
    if (tree.rootNode.hasError) {
      const bad = firstError(tree.rootNode);
      if (!bad) return { ok: false, reason: 'the command does not parse; write plain shell' };
      visit(bad, out);
    }
    visit(tree.rootNode, out);
    return { ok: true, commands: out.commands, redirects: out.redirects, variables: out.variables, flow: flowOf(tree.rootNode, out) };
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
