import type { Node } from 'web-tree-sitter';

/** One shell word after quote removal. `value` is null when it holds an expansion (unknown until run time). */
export interface Word {
  value: string | null;
  /** The word has an unquoted glob character (`*`, `?`, `[`): bash expands it against the file system. */
  glob: boolean;
  text: string;
}

function unescapeBare(s: string): string {
  return s.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDouble(s: string): string {
  return s.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

const BRACE = /(^|[^\\])\{[^{}]*(,|\.\.)[^{}]*\}/;

function part(n: Node, acc: { value: string; glob: boolean; dynamic: boolean; bare: string }): void {
  switch (n.type) {
    case 'word':
    case 'number':
    case 'command_name': {
      if (n.type === 'command_name' && n.namedChildCount > 0) {
        for (const c of n.namedChildren) if (c) part(c, acc);
        return;
      }
      acc.bare += n.text;
      if (/(^|[^\\])[*?[]/.test(n.text)) acc.glob = true;
      acc.value += unescapeBare(n.text);
      return;
    }
    case 'raw_string':
      acc.value += n.text.slice(1, -1);
      return;
    case 'string':
    case 'translated_string':
      for (const c of n.namedChildren) {
        if (c?.type === 'string_content') acc.value += unescapeDouble(c.text);
        else if (c) acc.dynamic = true;
      }
      return;
    case 'concatenation':
      for (const c of n.namedChildren) if (c) part(c, acc);
      return;
    default:
      acc.dynamic = true;
  }
}

/** Quote removal for a word node; anything with an expansion (or brace expansion) has a null value. */
export function wordOf(n: Node): Word {
  const acc = { value: '', glob: false, dynamic: false, bare: '' };
  part(n, acc);
  if (BRACE.test(acc.bare)) acc.dynamic = true;
  return { value: acc.dynamic ? null : acc.value, glob: acc.glob, text: n.text };
}
