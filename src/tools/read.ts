import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { z } from 'zod';
import type { ToolErrorKind, ToolResult } from './define-tool.js';
import { defineFileTool } from './file-tool.js';
import { readRootsOf, resolvePath } from './resolve-path.js';
import { nearNames } from './lib/near-names.js';
import { numberedSlice, splitLines } from './lib/number-lines.js';
import { hiddenFromAgent } from '../workspace/world.js';
import { readRegularFile, SpecialFileError, specialFileMessage, specialKind } from '../workspace/special-file.js';
import { wholeNumber } from './lib/whole-number.js';

export const READ_MAX_BYTES = 256 * 1024;
export const READ_DEFAULT_LIMIT = 2000;
/** The bound of a sliced read (offset/limit): the file is still read whole to count its lines. */
export const READ_SLICE_MAX_BYTES = 64 * 1024 * 1024;

const input = z.strictObject({
  file_path: z.string().describe('The file to read: relative to the repository root, or absolute inside it.'),
  offset: wholeNumber(1, undefined, '1-based line number to start from. Only for files too large to read at once.'),
  limit: wholeNumber(1, undefined, `How many lines to read (default ${READ_DEFAULT_LIMIT}).`),
});

const hiddenMessage = (p: string): string =>
  `${p} looks like a secret file (keys, tokens, credentials): it is not part of what you can see, here or in the sandbox. Work with a template such as .env.example; a maintainer can list it in permissions.readable in .github/proofpr.yml.`;

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

/** A missing file, with the nearest names or the missing folder as a hint. */
function notFound(filePath: string, abs: string, root: string): ToolResult {
  const near = nearNames(abs, root);
  const hint =
    near.suggestions.length > 0
      ? ` Did you mean: ${near.suggestions.join(', ')}?`
      : near.missingDir
        ? ` The folder ${near.missingDir} does not exist either.`
        : '';
  return fail('not_found', `File does not exist: ${filePath}.${hint} Use Glob to find files by name.`);
}

/** The refusal for a file too large to read whole (unless sliced) or at all; undefined when the size is fine. */
function sizeRefusal(filePath: string, size: number, sliced: boolean): ToolResult | undefined {
  if (size > READ_MAX_BYTES && !sliced) {
    return fail(
      'too_large',
      `${filePath} is ${Math.ceil(size / 1024)} KB, over the ${READ_MAX_BYTES / 1024} KB limit for reading a whole file. Read a part with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need.`,
    );
  }
  if (size > READ_SLICE_MAX_BYTES) {
    return fail(
      'too_large',
      `${filePath} is ${Math.ceil(size / 1024 / 1024)} MB, over the ${READ_SLICE_MAX_BYTES / 1024 / 1024} MB limit of Read even in parts. Use Grep to find the lines you need, or Bash (for example \`sed -n '100,200p'\`).`,
    );
  }
  return undefined;
}

export const readTool = defineFileTool({
  name: 'Read',
  input,
  kind: 'read',
  async execute({ file_path, offset, limit }, ctx) {
    const r = resolvePath(file_path, { root: ctx.root, readRoots: readRootsOf(ctx), linked: true });
    if (!r.ok) return fail('denied', r.message);
    const rel = r.rel.split(sep).join('/');
    if (r.inRoot && ctx.readDeny?.(rel)) {
      return fail('denied', `Reading ${file_path} is refused by the repository's permissions.deny rules; leave that file alone.`);
    }
    if (r.inRoot && hiddenFromAgent(ctx.root, rel)) return fail('denied', hiddenMessage(file_path));
    let st;
    try {
      st = statSync(r.abs);
    } catch {
      return notFound(file_path, r.abs, ctx.root);
    }
    if (st.isDirectory())
      return fail(
        'is_directory',
        `${file_path} is a directory, not a file. Use Glob (for example pattern "${r.rel === '.' ? '' : `${r.rel}/`}*") to list its files.`,
      );
    const kind = specialKind(st);
    if (kind) return fail('special_file', specialFileMessage(file_path, kind, 'reading'));
    const tooLarge = sizeRefusal(file_path, st.size, offset !== undefined || limit !== undefined);
    if (tooLarge) return tooLarge;
    let buf: Buffer;
    try {
      buf = readRegularFile(r.abs, READ_SLICE_MAX_BYTES);
    } catch (e) {
      if (e instanceof SpecialFileError) return fail('special_file', specialFileMessage(file_path, e.kind, 'reading'));
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      return fail('not_found', `${file_path} could not be read (${code}). Check the path with Glob, then retry.`);
    }
    if (buf.subarray(0, 8000).includes(0)) {
      return fail(
        'binary',
        `${file_path} is a binary file (it contains NUL bytes); Read only shows text. Use Bash (for example \`file\` or \`xxd | head\`) if you need to inspect it.`,
      );
    }
    const lines = splitLines(buf.toString('utf8'));
    if (lines.length === 0) {
      ctx.fileState.record(r.abs, true);
      return {
        forModel: `${file_path} is empty (0 lines).`,
        forHuman: `Read ${r.rel} (empty)`,
        isError: false,
        meta: { path: r.rel, lines: 0, full: true },
      };
    }
    const from = offset ?? 1;
    if (from > lines.length)
      return fail(
        'invalid_input',
        `offset ${from} is past the end of ${file_path}, which has ${lines.length} lines. Use an offset between 1 and ${lines.length}.`,
      );
    const to = Math.min(lines.length, from + (limit ?? READ_DEFAULT_LIMIT) - 1);
    const full = from === 1 && to === lines.length;
    ctx.fileState.record(r.abs, full);
    let text = numberedSlice(lines, from, to);
    if (!full) {
      const more = to < lines.length ? ` To continue, call Read with offset ${to + 1}.` : '';
      text += `\n\n(Showing lines ${from}-${to} of ${lines.length}.${more} This is a partial read: Edit and Write need the whole file read in one call (offset 1, limit ${lines.length}).)`;
    }
    return {
      forModel: text,
      forHuman: `Read ${r.rel} (${to - from + 1} lines)`,
      isError: false,
      meta: { path: r.rel, lines: lines.length, from, to, full },
    };
  },
});
