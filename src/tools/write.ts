import { sep } from 'node:path';
import { statSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, type ToolErrorKind, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { atomicWrite } from './lib/atomic-write.js';
import { editGuard } from './lib/edit-guard.js';
import { contentTooLarge, FILE_MAX_BYTES } from './lib/content-cap.js';
import { gitPathProblem } from '../workspace/git-path-rules.js';
import { readRegularFile, specialFileMessage, specialKind } from '../workspace/special-file.js';

const input = z.strictObject({
  file_path: z.string().describe('The file to write: relative to the repository root, or absolute inside it. Parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

const fail = (errorKind: ToolErrorKind, forModel: string): ToolResult => ({ forModel, isError: true, errorKind });

/** How much of an existing file Write reads to keep its line endings. */
const WRITE_READ_MAX_BYTES = FILE_MAX_BYTES;

/** The refusal for a path git cannot commit (gitPathProblem), shared by Write and Edit; undefined when fine. */
export function uncommittable(rel: string, shown: string): ToolResult | undefined {
  const why = gitPathProblem(rel.split(sep).join('/'));
  if (!why) return undefined;
  return fail(
    'git_path',
    `${shown} is refused: git cannot commit this path (${why}), so the work would be lost. Choose another name, without a ".git" look-alike.`,
  );
}

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
    const bad = uncommittable(r.rel, file_path);
    if (bad) return bad;
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
