import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { statSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { globToRegex } from './lib/glob-to-regex.js';
import { listFiles } from './lib/list-files.js';

export const GLOB_MAX_RESULTS = 100;

const input = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern matched against paths relative to `path`, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z.string().optional().describe('Folder to search in (default: the repository root).'),
});

const fail = (errorKind: string, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

export const globTool = defineTool({
  name: 'Glob',
  description: descriptions.Glob,
  input,
  readOnly: true,
  async execute({ pattern, path }, ctx) {
    const r = resolvePath(path ?? '.', { root: ctx.root });
    if (!r.ok) return fail('denied', r.message);
    let isDir = false;
    try {
      isDir = statSync(r.abs).isDirectory();
    } catch {
      return fail('not_found', `Folder does not exist: ${path}. Use a folder inside the repository, or leave path out to search from the root.`);
    }
    if (!isDir) return fail('invalid_input', `path must be a folder, and ${path} is a file. Leave path out or give its folder.`);
    let pat = pattern;
    if (isAbsolute(pat)) {
      const rel = relative(r.abs, pat);
      if (rel.startsWith('..')) return fail('invalid_input', `pattern "${pattern}" points outside the search folder; give a pattern relative to it, e.g. "**/*.ts".`);
      pat = rel;
    }
    const re = globToRegex(pat);
    const prefix = r.rel === '.' ? '' : `${r.rel}/`;
    const files = await listFiles(ctx.root, r.rel, ctx.signal);
    const matched = files.filter((f) => f.startsWith(prefix) && re.test(f.slice(prefix.length)));
    const stats = await Promise.all(
      matched.map(async (f) => {
        try {
          const st = await stat(join(ctx.root, f));
          return st.isFile() ? { f, m: st.mtimeMs } : undefined;
        } catch {
          return undefined;
        }
      }),
    );
    const found = stats.filter((s): s is { f: string; m: number } => s !== undefined).sort((a, b) => b.m - a.m || (a.f < b.f ? -1 : 1));
    if (found.length === 0) {
      return { forModel: `No files matched "${pattern}"${path ? ` in ${path}` : ''}.`, forHuman: `Glob ${pattern}: 0 files`, isError: false, meta: { count: 0 } };
    }
    const shown = found.slice(0, GLOB_MAX_RESULTS).map((s) => s.f);
    const more = found.length - shown.length;
    const tail = more > 0 ? `\n(results truncated: ${more} more. Use a narrower pattern or path.)` : '';
    return { forModel: shown.join('\n') + tail, forHuman: `Glob ${pattern}: ${found.length} files`, isError: false, meta: { count: found.length, truncated: more > 0 } };
  },
});
