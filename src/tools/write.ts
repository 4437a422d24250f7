import { statSync } from 'node:fs';
import { z } from 'zod';
import type { ToolErrorKind, ToolResult } from './define-tool.js';
import { committablePath, defineFileTool } from './file-tool.js';
import { atomicWrite } from './lib/atomic-write.js';
import { editGuard } from './lib/edit-guard.js';
import { contentTooLarge, FILE_MAX_BYTES } from './lib/content-cap.js';
import { readRegularFile, specialFileMessage, specialKind } from '../workspace/special-file.js';

const input = z.strictObject({
  file_path: z.string().describe('The file to write: relative to the repository root, or absolute inside it. Parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

/** How much of an existing file Write reads to keep its line endings. */
const WRITE_READ_MAX_BYTES = FILE_MAX_BYTES;

/** True when every line break of text is CRLF (and there is at least one). */
function isCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  return crlf > 0 && crlf === text.split('\n').length - 1;
}

export const writeTool = defineFileTool({
  name: 'Write',
  input,
  kind: 'edit',
  async execute({ file_path, content }, ctx) {
    const r = committablePath(file_path, ctx.root);
    if (!r.ok) return r.refusal;
    let exists = false;
    try {
      const st = statSync(r.abs);
      if (st.isDirectory()) return fail('is_directory', `${file_path} is a directory; Write needs a file path.`);
      const kind = specialKind(st);
      if (kind) return fail('special_file', specialFileMessage(file_path, kind, 'writing'));
      exists = true;
    } catch {
      exists = false;
    }
    const big = contentTooLarge('content', content, 'Write');
    if (big) return big;
    let text = content;
    if (exists) {
      const guard = editGuard(ctx.fileState, r.abs, file_path, 'overwrite');
      if (guard) return guard;
      if (!content.includes('\r') && isCrlf(readRegularFile(r.abs, WRITE_READ_MAX_BYTES).toString('utf8')))
        text = content.replace(/\n/g, '\r\n');
    }
    try {
      atomicWrite(r.abs, text);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      return fail(
        'write_failed',
        `Could not write ${file_path} (${code}). Check that no part of the path is an existing file, then retry.`,
      );
    }
    ctx.fileState.record(r.abs, true);
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return {
      forModel: `${exists ? 'Overwrote' : 'Created'} ${file_path} (${lines} lines).`,
      forHuman: `Write ${r.rel} (${lines} lines)`,
      isError: false,
      effects: [{ type: 'file_changed', path: r.rel }],
      meta: { path: r.rel, created: !exists, lines },
    };
  },
});
