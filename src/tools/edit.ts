import { statSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, type ToolErrorKind, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { atomicWrite } from './lib/atomic-write.js';
import { closestRegion } from './lib/closest-region.js';
import { editGuard } from './lib/edit-guard.js';
import { numberedSlice, splitLines } from './lib/number-lines.js';
import { nearNames } from './lib/near-names.js';
import { readRegularFile, specialFileMessage, specialKind } from '../workspace/special-file.js';
import { uncommittable } from './write.js';

/** The largest file Edit reads and rewrites. */
const EDIT_MAX_BYTES = 64 * 1024 * 1024;

const input = z.strictObject({
  file_path: z.string().describe('The file to change: relative to the repository root, or absolute inside it.'),
  old_string: z
    .string()
    .describe('The exact text to replace (without Read line-number prefixes). Must match exactly one place unless replace_all is true.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

function positions(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;
const toCrlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');

/** Lines removed and added by replacing a with b, after dropping the lines they share at both ends. */
function lineDelta(a: string, b: string): { added: number; removed: number } {
  const x = a.split('\n');
  const y = b.split('\n');
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  return { removed: x.length - p - s, added: y.length - p - s };
}

export const editTool = defineTool({
  name: 'Edit',
  description: descriptions.Edit,
  input,
  kind: 'edit',
  access: ({ file_path }) => ({ paths: [{ path: file_path, type: 'file' }], patterns: [] }),
  async execute({ file_path, old_string, new_string, replace_all }, ctx) {
    const r = resolvePath(file_path, { root: ctx.root });
    if (!r.ok) return fail('denied', r.message);
    const bad = uncommittable(r.rel, file_path);
    if (bad) return bad;
    let isDir: boolean;
    let size = 0;
    try {
      const st = statSync(r.abs);
      const kind = specialKind(st);
      if (kind) return fail('special_file', specialFileMessage(file_path, kind, 'editing'));
      isDir = st.isDirectory();
      size = st.size;
    } catch {
      const near = nearNames(r.abs, ctx.root).suggestions;
      return fail(
        'not_found',
        `File does not exist: ${file_path}.${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} Edit changes existing files; to create a new file use Write.`,
      );
    }
    if (isDir) return fail('is_directory', `${file_path} is a directory; Edit changes files.`);
    if (size > EDIT_MAX_BYTES)
      return fail(
        'too_large',
        `${file_path} is over ${EDIT_MAX_BYTES / 1024 / 1024} MB, too large for Edit. Change it with Bash (for example sed -i) instead.`,
      );
    if (old_string === '')
      return fail(
        'invalid_input',
        'old_string is empty. Give the exact text to replace (copied from the file without the line-number prefix); to replace a whole file, use Write.',
      );
    if (old_string === new_string)
      return fail(
        'no_op',
        'old_string and new_string are identical, so this edit would change nothing. Put the text to replace in old_string and its replacement in new_string.',
      );
    const guard = editGuard(ctx.fileState, r.abs, file_path, 'edit');
    if (guard) return guard;

    const raw = readRegularFile(r.abs, EDIT_MAX_BYTES).toString('utf8');
    const crlfCount = raw.split('\r\n').length - 1;
    const crlf = crlfCount > 0 && crlfCount >= raw.split('\n').length - 1 - crlfCount;
    let oldS = old_string;
    let newS = new_string;
    let at = positions(raw, oldS);
    if (crlf && at.length === 0 && !old_string.includes('\r')) {
      oldS = toCrlf(old_string);
      newS = toCrlf(new_string);
      at = positions(raw, oldS);
    } else if (crlf && !new_string.includes('\r')) {
      newS = toCrlf(new_string);
    }

    if (at.length === 0) {
      const lines = splitLines(raw);
      const region = closestRegion(lines, old_string);
      const prefixHint = /^\s*\d+\t/.test(old_string)
        ? ' old_string seems to start with a Read line-number prefix: leave the number and tab out.'
        : '';
      const shown = region
        ? ` The closest text is at lines ${region.start}-${region.end}:\n${numberedSlice(lines, region.start, region.end)}\n`
        : ' ';
      return fail(
        'no_match',
        `old_string was not found in ${file_path}.${shown}Copy the exact text, including indentation and whitespace, from the file and retry.${prefixHint}`,
      );
    }
    if (at.length > 1 && replace_all !== true) {
      const lineNos = at.map((i) => lineOf(raw, i));
      return fail(
        'ambiguous',
        `old_string matches ${at.length} places in ${file_path} (lines ${lineNos.join(', ')}). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.`,
      );
    }

    const first = at[0] ?? 0;
    const next = replace_all === true ? raw.split(oldS).join(newS) : raw.slice(0, first) + newS + raw.slice(first + oldS.length);
    atomicWrite(r.abs, next);
    ctx.fileState.record(r.abs, true);

    const delta = lineDelta(old_string, new_string);
    const added = delta.added * at.length;
    const removed = delta.removed * at.length;
    const nextLines = splitLines(next);
    const startLine = lineOf(next, first);
    const endLine = Math.min(startLine + newS.replace(/\r?\n$/, '').split('\n').length - 1, startLine + 30);
    const snippet = numberedSlice(nextLines, startLine - 3, endLine + 3);
    const count = at.length > 1 ? ` (${at.length} occurrences replaced)` : '';
    return {
      forModel: `Edited ${file_path}${count}. The changed region now reads:\n${snippet}`,
      forHuman: `Edit ${r.rel} (+${added} -${removed})`,
      isError: false,
      effects: [{ type: 'file_changed', path: r.rel }],
      meta: { path: r.rel, added, removed, replacements: at.length },
    };
  },
});
