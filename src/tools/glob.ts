import { isAbsolute, join, relative } from 'node:path';
import { statSync } from 'node:fs';
import { setImmediate as tick } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool, type ToolErrorKind, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { globToRegex } from './lib/glob-to-regex.js';
import { listFiles } from './lib/list-files.js';
import { hiddenPaths } from './lib/hidden.js';

export const GLOB_MAX_RESULTS = 100;

const input = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern matched against paths relative to `path`, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z.string().optional().describe('Folder to search in (default: the repository root).'),
});

// A "double-star slash name-glob" pattern (the common case) only needs the file name tested: much cheaper on big trees.
function compileMatcher(pattern: string): (rel: string) => boolean {
  const m = /^\*\*\/([^/]+)$/.exec(pattern);
  if (m?.[1] && !m[1].includes('**') && !/[{}]/.test(m[1])) {
    const re = globToRegex(m[1]);
    return (rel) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
  }
  const re = globToRegex(pattern);
  return (rel) => re.test(rel);
}

/** mtimes of files (dropping folders and vanished paths). Sync stats in slices: far faster than the thread pool here, and the loop still breathes. */
async function statAll(root: string, rels: string[]): Promise<Array<{ f: string; m: number }>> {
  const out: Array<{ f: string; m: number }> = [];
  for (let i = 0; i < rels.length; i++) {
    const f = rels[i] as string;
    const st = statSync(join(root, f), { throwIfNoEntry: false });
    if (st?.isFile()) out.push({ f, m: st.mtimeMs });
    if (i % 512 === 511) await tick();
  }
  return out;
}

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

export const globTool = defineTool({
  name: 'Glob',
  description: descriptions.Glob,
  input,
  kind: 'search',
  access: ({ pattern, path }) => ({ paths: [{ path, type: 'dir' }], patterns: [{ field: 'pattern', pattern }] }),
  async execute({ pattern, path }, ctx) {
    const r = resolvePath(path ?? '.', { root: ctx.root, linked: true });
    if (!r.ok) return fail('denied', r.message);
    let isDir = false;
    try {
      isDir = statSync(r.abs).isDirectory();
    } catch {
      return fail(
        'not_found',
        `Folder does not exist: ${path}. Use a folder inside the repository, or leave path out to search from the root.`,
      );
    }
    if (!isDir) return fail('invalid_input', `path must be a folder, and ${path} is a file. Leave path out or give its folder.`);
    let pat = pattern;
    if (isAbsolute(pat)) {
      const rel = relative(r.abs, pat);
      if (rel.startsWith('..'))
        return fail(
          'invalid_input',
          `pattern "${pattern}" points outside the search folder; give a pattern relative to it, e.g. "**/*.ts".`,
        );
      pat = rel;
    }
    const match = compileMatcher(pat);
    const prefix = r.rel === '.' ? '' : `${r.rel}/`;
    const files = await listFiles(ctx.root, r.rel, ctx.signal);
    const hidden = hiddenPaths(ctx);
    const matched = files.filter((f) => f.startsWith(prefix) && match(f.slice(prefix.length)) && !hidden(f));
    const stats = await statAll(ctx.root, matched);
    const found = stats.sort((a, b) => b.m - a.m || (a.f < b.f ? -1 : 1));
    if (found.length === 0) {
      return {
        forModel: `No files matched "${pattern}"${path ? ` in ${path}` : ''}.`,
        forHuman: `Glob ${pattern}: 0 files`,
        isError: false,
        meta: { count: 0 },
      };
    }
    const shown = found.slice(0, GLOB_MAX_RESULTS).map((s) => s.f);
    const more = found.length - shown.length;
    const tail = more > 0 ? `\n(results truncated: ${more} more. Use a narrower pattern or path.)` : '';
    return {
      forModel: shown.join('\n') + tail,
      forHuman: `Glob ${pattern}: ${found.length} files`,
      isError: false,
      meta: { count: found.length, truncated: more > 0 },
    };
  },
});
