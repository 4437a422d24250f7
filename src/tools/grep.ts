import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { z } from 'zod';
import { defineTool, type ToolDefinition, type ToolErrorKind, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { readRootsOf, resolvePath } from './resolve-path.js';
import { globToRegex } from './lib/glob-to-regex.js';
import { rgBackend } from './grep/rg.js';
import { gitBackend } from './grep/git-grep.js';
import { jsBackend } from './grep/js-grep.js';
import { renderHits } from './grep/render.js';
import { hiddenPaths } from './lib/hidden.js';
import { specialFileMessage, specialKind } from '../workspace/special-file.js';
import type { GrepBackend, GrepBackendName, GrepHits, GrepQuery } from './grep/types.js';
import { wholeNumber } from './lib/whole-number.js';

const input = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression to search for (ripgrep syntax), e.g. "function\\s+\\w+" or "TODO".'),
  path: z.string().optional().describe('File or folder to search (default: the repository root).'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default): matching file paths; "content": matching lines; "count": matching lines per file.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true).'),
  '-C': wholeNumber(0, 50, 'Lines of context before and after each match (content mode).'),
  head_limit: wholeNumber(1, undefined, 'Show only the first N entries (lines, files or counts).'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

const onPath = new Map<string, boolean>();
function available(cmd: string): boolean {
  if (!onPath.has(cmd)) onPath.set(cmd, spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0);
  return onPath.get(cmd) === true;
}

/** Which backend runs: rg when on PATH, else git grep, else JS (git is skipped outside the repository). */
export function pickBackend(forced: GrepBackendName | undefined, inRoot: boolean): GrepBackendName {
  if (forced) return forced === 'git' && !inRoot ? 'js' : forced;
  if (available('rg')) return 'rg';
  if (inRoot && available('git')) return 'git';
  return 'js';
}

const backends: Record<GrepBackendName, GrepBackend> = { rg: rgBackend, git: gitBackend, js: jsBackend };

/** rg applies the glob itself; for git and JS the same rule is applied here (slash-less globs match names at any depth). */
function filterGlob(hits: Extract<GrepHits, { ok: true }>, glob: string): void {
  const re = globToRegex(glob, { matchBase: true });
  for (const map of [hits.files, hits.counts]) for (const p of [...map.keys()]) if (!re.test(p)) map.delete(p);
}

/** Files the config's Read deny rules cover never show up, whatever the backend found. */
function dropDenied(hits: Extract<GrepHits, { ok: true }>, denied: (rel: string) => boolean): void {
  for (const map of [hits.files, hits.counts]) for (const p of [...map.keys()]) if (denied(p.split(sep).join('/'))) map.delete(p);
}

export function createGrepTool(opts: { backend?: GrepBackendName } = {}): ToolDefinition<typeof input> {
  return defineTool({
    name: 'Grep',
    description: descriptions.Grep,
    input,
    kind: 'search',
    access: ({ path, glob }) => ({
      paths: [{ path, type: 'dir' }],
      patterns: glob === undefined ? [] : [{ field: 'glob', pattern: glob }],
    }),
    async execute(args, ctx) {
      const r = resolvePath(args.path ?? '.', { root: ctx.root, readRoots: readRootsOf(ctx), linked: true });
      if (!r.ok) return fail('denied', r.message);
      let isFile: boolean;
      try {
        const st = statSync(r.abs);
        const kind = specialKind(st);
        // rg, like git grep, skips pipes and devices it meets in a folder, but opens one it is named.
        if (kind) return fail('special_file', specialFileMessage(args.path ?? '.', kind, 'searching'));
        isFile = st.isFile();
      } catch {
        return fail(
          'not_found',
          `Path does not exist: ${args.path}. Use Glob to find the right file or folder, or leave path out to search the whole repository.`,
        );
      }
      const mode = args.output_mode ?? 'files_with_matches';
      const q: GrepQuery = {
        pattern: args.pattern,
        target: r.inRoot ? r.rel : r.abs,
        targetIsFile: isFile,
        inRoot: r.inRoot,
        ignoreCase: args['-i'] === true,
        context: mode === 'content' ? (args['-C'] ?? 0) : 0,
        mode,
        ...(args.glob ? { glob: args.glob } : {}),
      };
      const backend = pickBackend(opts.backend, r.inRoot);
      const hits = await backends[backend](q, ctx.root, ctx.signal);
      if (ctx.signal.aborted) return fail('cancelled', 'Grep was cancelled.');
      if (!hits.ok) {
        return fail(
          'invalid_regex',
          `Invalid pattern "${args.pattern}": ${hits.error}\nGrep patterns are regular expressions: escape special characters (for example \\( or \\.) to match them literally, then call Grep again.`,
        );
      }
      if (args.glob && backend !== 'rg') filterGlob(hits, args.glob);
      if (r.inRoot) dropDenied(hits, hiddenPaths(ctx));
      const { text, entries } = renderHits(hits, mode, args['-n'] !== false, args.head_limit);
      return {
        forModel: text,
        forHuman: `Grep ${args.pattern}: ${entries} ${mode === 'content' ? 'lines' : 'entries'}`,
        isError: false,
        meta: { backend, mode, entries },
      };
    },
  });
}

export const grepTool = createGrepTool();
