import type { ToolResult } from '../define-tool.js';

/** The most text one Edit (new_string) or Write (content) call may carry. */
export const CONTENT_MAX_BYTES = 1024 * 1024;

/** The largest file Edit reads and rewrites, and the largest file Edit or Write leaves behind. */
export const FILE_MAX_BYTES = 64 * 1024 * 1024;

const mb = (n: number): string => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/** The refusal for text the model sent that is over CONTENT_MAX_BYTES; undefined when within it. */
export function contentTooLarge(field: 'content' | 'new_string', text: string, tool: 'Write' | 'Edit'): ToolResult | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= CONTENT_MAX_BYTES) return undefined;
  return {
    forModel: `${field} is ${mb(bytes)}, over ${tool}'s limit of ${mb(CONTENT_MAX_BYTES)} per call. Split it: write the first part, then add the rest with further Edit calls of at most ${mb(CONTENT_MAX_BYTES)} each.`,
    isError: true,
    errorKind: 'too_large',
  };
}

/** The refusal for a file that would end up over FILE_MAX_BYTES; undefined when within it. */
export function resultTooLarge(shownPath: string, text: string, tool: 'Write' | 'Edit'): ToolResult | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= FILE_MAX_BYTES) return undefined;
  return {
    forModel: `${tool} would make ${shownPath} ${mb(bytes)}, over the limit of ${mb(FILE_MAX_BYTES)} per file. Nothing was written; make a smaller change.`,
    isError: true,
    errorKind: 'too_large',
  };
}
