import { statSync } from 'node:fs';
import { z } from 'zod';
import type { ToolErrorKind, ToolResult } from './define-tool.js';
import { committablePath, defineFileTool } from './file-tool.js';
import { atomicWrite } from './lib/atomic-write.js';
import { closestRegion } from './lib/closest-region.js';
import { editGuard } from './lib/edit-guard.js';
import { numberedSlice, splitLines } from './lib/number-lines.js';
import { nearNames } from './lib/near-names.js';
import { readRegularFile, specialFileMessage, specialKind } from '../workspace/special-file.js';
import { contentTooLarge, FILE_MAX_BYTES, resultTooLarge } from './lib/content-cap.js';
import { applyEdit, matchEdit } from './lib/edit-match.js';

/** The largest file Edit reads and rewrites. */
const EDIT_MAX_BYTES = FILE_MAX_BYTES;

const input = z.strictObject({
  file_path: z.string().describe('The file to change: relative to the repository root, or absolute inside it.'),
  old_string: z
    .string()
    .describe('The exact text to replace (without Read line-number prefixes). Must match exactly one place unless replace_all is true.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** The refusal for an old_string found nowhere: the closest region of the file, to copy from. */
function noMatch(raw: string, oldString: string, shownPath: string): ToolResult {
  const lines = splitLines(raw);
  const region = closestRegion(lines, oldString);
  const prefixHint = /^\s*\d+\t/.test(oldString)
    ? ' old_string seems to start with a Read line-number prefix: leave the number and tab out.'
    : '';
  const shown = region
    ? ` The closest text is at lines ${region.start}-${region.end}:\n${numberedSlice(lines, region.start, region.end)}\n`
    : ' ';
  return fail(
    'no_match',
    `old_string was not found in ${shownPath}.${shown}Copy the exact text, including indentation and whitespace, from the file and retry.${prefixHint}`,
  );
}

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

/** old_string and new_string make a real change of an allowed size; undefined when they do. */
function checkStrings(oldString: string, newString: string): ToolResult | undefined {
  if (oldString === '')
    return fail(
      'invalid_input',
      'old_string is empty. Give the exact text to replace (copied from the file without the line-number prefix); to replace a whole file, use Write.',
    );
  if (oldString === newString)
    return fail(
      'no_op',
      'old_string and new_string are identical, so this edit would change nothing. Put the text to replace in old_string and its replacement in new_string.',
    );
  return contentTooLarge('new_string', newString, 'Edit');
}

export const editTool = defineFileTool({
  name: 'Edit',
  input,
  kind: 'edit',
  async execute({ file_path, old_string, new_string, replace_all }, ctx) {
    const r = committablePath(file_path, ctx.root);
    if (!r.ok) return r.refusal;
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
    const badStrings = checkStrings(old_string, new_string);
    if (badStrings) return badStrings;
    const guard = editGuard(ctx.fileState, r.abs, file_path, 'edit');
    if (guard) return guard;

    const raw = readRegularFile(r.abs, EDIT_MAX_BYTES).toString('utf8');
    const m = matchEdit(raw, old_string, new_string);
    const at = m.at;
    if (at.length === 0) return noMatch(raw, old_string, file_path);
    if (at.length > 1 && replace_all !== true) {
      const lineNos = at.map((i) => lineOf(raw, i));
      return fail(
        'ambiguous',
        `old_string matches ${at.length} places in ${file_path} (lines ${lineNos.join(', ')}). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.`,
      );
    }

    const first = at[0] ?? 0;
    const newS = m.replacement;
    const next = applyEdit(raw, m, replace_all === true);
    const over = resultTooLarge(file_path, next, 'Edit');
    if (over) return over;
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
    const quotes = m.quotesNormalized
      ? " (old_string matched after treating curly and straight quotes alike; the file's quote style was kept)"
      : '';
    return {
      forModel: `Edited ${file_path}${count}${quotes}. The changed region now reads:\n${snippet}`,
      forHuman: `Edit ${r.rel} (+${added} -${removed})`,
      isError: false,
      effects: [{ type: 'file_changed', path: r.rel }],
      meta: { path: r.rel, added, removed, replacements: at.length, ...(m.quotesNormalized ? { quotesNormalized: true } : {}) },
    };
  },
});
