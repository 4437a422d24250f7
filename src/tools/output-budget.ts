import { rmSync, statSync } from 'node:fs';
import { writeRedactedFileSync } from '../secrets/redacting-writer.js';
import { join } from 'node:path';

export interface BudgetOptions {
  runDir: string;
  callId: string;
  /** Bytes the model may see in one result (default 30 000). */
  limitBytes?: number;
  /**
   * The tool already streamed its full output to this file (Bash: every byte as it arrived, up to the
   * exec's file cap): it is named instead of writing `text` (which may be only a head and tail). It is
   * removed when `text` fits the budget.
   */
  savedPath?: string;
}

export const DEFAULT_OUTPUT_LIMIT = 30_000;

/** Cut a string to at most `bytes` UTF-8 bytes, at a line break when one is near. */
function headBytes(text: string, bytes: number): string {
  let cut = Buffer.from(text, 'utf8')
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = cut.lastIndexOf('\n');
  if (nl > cut.length * 0.8) cut = cut.slice(0, nl + 1);
  return cut;
}

function tailBytes(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  let cut = buf
    .subarray(Math.max(0, buf.length - bytes))
    .toString('utf8')
    .replace(/^\uFFFD/, '');
  const nl = cut.indexOf('\n');
  if (nl >= 0 && nl < cut.length * 0.2) cut = cut.slice(nl + 1);
  return cut;
}

/**
 * Keep a tool result within the model's budget. Over the limit, the whole text goes to
 * `<runDir>/tool-output/<callId>.txt` (or the tool's own streamed file, `savedPath`, is kept) and the
 * model gets the head, the tail and that path.
 */
export function budgetOutput(text: string, opts: BudgetOptions): { text: string; outputPath?: string } {
  const limit = opts.limitBytes ?? DEFAULT_OUTPUT_LIMIT;
  let size = Buffer.byteLength(text, 'utf8');
  if (size <= limit) {
    if (opts.savedPath) rmSync(opts.savedPath, { force: true });
    return { text };
  }
  const dir = join(opts.runDir, 'tool-output');
  const outputPath = opts.savedPath ?? join(dir, `${opts.callId.replace(/[^A-Za-z0-9_.-]/g, '_')}.txt`);
  let saved = true;
  if (opts.savedPath) {
    size = Math.max(size, statSync(opts.savedPath, { throwIfNoEntry: false })?.size ?? 0);
  } else {
    try {
      writeRedactedFileSync(outputPath, text);
    } catch {
      saved = false;
    }
  }
  const head = headBytes(text, Math.floor(limit * 0.6));
  const tail = tailBytes(text, Math.floor(limit * 0.3));
  const lines = opts.savedPath ? undefined : text.split('\n').length;
  const what = lines === undefined ? `${size} bytes` : `${size} bytes, ${lines} lines`;
  const omitted = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const where = saved
    ? `The full output (${what}) is saved at ${outputPath}: use Read with offset/limit or Grep on that path to see the rest.`
    : `The full output (${what}) could not be saved; rerun with a narrower query to see the rest.`;
  const body = `${head}${head.endsWith('\n') ? '' : '\n'}\n[... ${omitted} bytes omitted ...]\n\n${tail}\n\n[Output too long for one result. ${where}]`;
  return saved ? { text: body, outputPath } : { text: body };
}
