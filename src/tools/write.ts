import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, type ToolErrorKind, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { atomicWrite } from './lib/atomic-write.js';
import { editGuard } from './lib/edit-guard.js';

const input = z.strictObject({
  file_path: z.string().describe('The file to write: relative to the repository root, or absolute inside it. Parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

/** True when every line break of text is CRLF (and there is at least one). */
function isCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  return crlf > 0 && crlf === text.split('\n').length - 1;
}

export const writeTool = defineTool({
  name: 'Write',
  description: descriptions.Write,
  input,
  kind: 'edit',
  access: ({ file_path }) => ({ paths: [{ path: file_path, type: 'file' }], patterns: [] }),
  async execute({ file_path, content }, ctx) {
    const r = resolvePath(file_path, { root: ctx.root });
    if (!r.ok) return fail('denied', r.message);
    let exists = false;
    try {
      const st = statSync(r.abs);
      if (st.isDirectory()) return fail('is_directory', `${file_path} is a directory; Write needs a file path.`);
      exists = true;
    } catch {
      exists = false;
    }
    let text = content;
    if (exists) {
      const guard = editGuard(ctx.fileState, r.abs, file_path, 'overwrite');
      if (guard) return guard;
      if (!content.includes('\r') && isCrlf(readFileSync(r.abs, 'utf8'))) text = content.replace(/\n/g, '\r\n');
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
