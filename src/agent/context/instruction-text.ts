/**
 * How an instruction file's text is read (seed 002 §13, as Claude Code reads CLAUDE.md): HTML comments
 * are notes for human readers and are stripped; `@path` imports another file of the repository in place
 * (relative to the importing file, bounded in depth and count, never outside the repository). Fenced code
 * blocks and inline code are left exactly as written: an `@` or a comment there is an example, not a command.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { hiddenFromAgent } from '../../workspace/world.js';

export const MAX_IMPORT_DEPTH = 4;
export const MAX_IMPORTS = 20;

/** Splits text into prose and fenced code blocks (``` or ~~~), so rewrites touch the prose only. */
function segments(text: string): Array<{ code: boolean; text: string }> {
  const out: Array<{ code: boolean; text: string }> = [];
  const fence = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
  let last = 0;
  for (const m of text.matchAll(fence)) {
    out.push({ code: false, text: text.slice(last, m.index) }, { code: true, text: m[0] });
    last = m.index + m[0].length;
  }
  out.push({ code: false, text: text.slice(last) });
  return out;
}

/** Applies `fn` to the prose outside inline code spans. */
function mapProse(text: string, fn: (prose: string) => string): string {
  return segments(text)
    .map((s) =>
      s.code
        ? s.text
        : s.text
            .split(/(`[^`\n]*`)/)
            .map((p, i) => (i % 2 === 1 ? p : fn(p)))
            .join(''),
    )
    .join('');
}

/** Removes HTML comments (`<!-- … -->`, over several lines too) outside code; a line left empty goes with it. */
export function stripHtmlComments(text: string): string {
  return segments(text)
    .map((s) => (s.code ? s.text : s.text.replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*\n/gm, '').replace(/<!--[\s\S]*?-->/g, '')))
    .join('');
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface ImportState {
  /** Real path of the repository root. */
  root: string;
  /** Imports expanded so far in this load (bounded by MAX_IMPORTS). */
  count: number;
  /** What was not imported, and why (said in the prompt). */
  notes: string[];
}

const IMPORT = /(^|[\s(])@((?:\.{1,2}\/|[\w-]+\/)?[\w./-]*[\w-]\.[\w]+|(?:\.{1,2}\/|[\w-]+\/)[\w./-]*[\w-])(?=$|[\s),;:.!?])/gm;

/** Real path of an import target when it is a file inside the repository, else why not. */
async function resolveImport(state: ImportState, fromDir: string, target: string): Promise<{ path: string } | { why: string }> {
  if (isAbsolute(target) || target.startsWith('~')) return { why: 'only paths inside the repository are imported' };
  try {
    const real = await realpath(join(fromDir, target));
    if (!inside(state.root, real)) return { why: 'it is outside the repository' };
    if (!(await stat(real)).isFile()) return { why: 'it is not a file' };
    // A masked file never reaches a prompt: the system prompt is the agent's world too.
    if (hiddenFromAgent(state.root, relative(state.root, real).split(sep).join('/')))
      return { why: 'it is masked (its content matches a secret rule; permissions.readable opts it in)' };
    return { path: real };
  } catch {
    return { why: 'no such file' };
  }
}

/**
 * Replaces each `@path` in the prose of `text` (a file in `fromDir`) with that file's text, itself read
 * the same way, up to MAX_IMPORT_DEPTH levels and MAX_IMPORTS files; a cycle, a missing file or a path
 * outside the repository stays as written and is noted.
 */
export async function expandImports(text: string, fromDir: string, state: ImportState, chain: string[] = []): Promise<string> {
  const found = new Set<string>();
  mapProse(text, (p) => {
    for (const m of p.matchAll(IMPORT)) found.add(m[2] ?? '');
    return p;
  });
  const bodies = new Map<string, string>();
  for (const target of found) {
    const r = await resolveImport(state, fromDir, target);
    const shown = relative(state.root, join(fromDir, target)).split('\\').join('/');
    if ('why' in r) {
      if (r.why !== 'no such file') state.notes.push(`@${target} not imported: ${r.why}`);
      continue;
    }
    if (chain.includes(r.path)) state.notes.push(`@${target} not imported: it imports itself (a cycle)`);
    else if (chain.length >= MAX_IMPORT_DEPTH)
      state.notes.push(`@${target} not imported: imports go ${MAX_IMPORT_DEPTH} levels deep at most`);
    else if (state.count >= MAX_IMPORTS) state.notes.push(`@${target} not imported: at most ${MAX_IMPORTS} imports are read`);
    else {
      state.count++;
      const inner = stripHtmlComments(await readFile(r.path, 'utf8'));
      const body = await expandImports(inner, dirname(r.path), state, [...chain, r.path]);
      bodies.set(target, `<imported path="${shown}">\n${body.trimEnd()}\n</imported>`);
    }
  }
  if (bodies.size === 0) return text;
  return mapProse(text, (p) =>
    p.replace(IMPORT, (all, lead: string, target: string) => (bodies.has(target) ? `${lead}${bodies.get(target)}` : all)),
  );
}
