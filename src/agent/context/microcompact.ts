/**
 * Microcompact: tool results older than a protected recent window are replaced by a one-line stub naming
 * the tool, its input (short) and where the full output lives. The action trail stays; the payload goes.
 * Pairs stay valid: every tool_result keeps its tool_use_id and place.
 */
import type { Message, ToolResultBlock } from '../../model/model-client.js';
import { estimateTokens } from './estimate.js';

export const STUB_PREFIX = '[Old tool result cleared to save context:';
const MIN_CHARS = 300;
const INPUT_CHARS = 120;
const OUTPUT_PATH = /[^\s'"`()[\]<>]*tool-output\/[^\s'"`()[\]<>]+/;

export interface MicrocompactOptions {
  /** How many of the latest tool results stay untouched. */
  protectRecent: number;
  /** Results shorter than this are left alone (a stub would not save anything). */
  minChars?: number;
}

export interface MicrocompactResult {
  messages: Message[];
  cleared: number;
  savedTokens: number;
  /** Index of the first message that changed (messages.length when none did). */
  firstChanged: number;
}

function shortInput(input: unknown): string {
  const s = JSON.stringify(input ?? {}) ?? '{}';
  return s.length > INPUT_CHARS ? `${s.slice(0, INPUT_CHARS - 1)}…` : s;
}

function size(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  const lines = text.split('\n').length;
  return `${lines} lines, ${bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`}`;
}

/** The one-line stub that replaces an old tool result. */
export function stubFor(block: ToolResultBlock, tool: { name: string; input: unknown } | undefined): string {
  const call = tool ? `${tool.name} ${shortInput(tool.input)}` : `tool call ${block.tool_use_id}`;
  const path = OUTPUT_PATH.exec(block.content)?.[0];
  const where = path ? `full output saved at ${path} (Read it if needed)` : 'run the tool again if you need it';
  return `${STUB_PREFIX} ${call}${block.is_error ? ' (error)' : ''} → ${size(block.content)}; ${where}.]`;
}

export function microcompact(messages: Message[], opts: MicrocompactOptions): MicrocompactResult {
  const minChars = opts.minChars ?? MIN_CHARS;
  const calls = new Map<string, { name: string; input: unknown }>();
  const positions: Array<[number, number]> = [];
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    m.content.forEach((b, j) => {
      if (b.type === 'tool_use') calls.set(b.id, { name: b.name, input: b.input });
      else if (b.type === 'tool_result') positions.push([i, j]);
    });
  });
  const clearable = positions.slice(0, Math.max(0, positions.length - Math.max(0, opts.protectRecent)));
  const out = [...messages];
  let cleared = 0;
  let firstChanged = messages.length;
  for (const [i, j] of clearable) {
    const m = out[i];
    if (!m || m.role !== 'user' || typeof m.content === 'string') continue;
    const b = m.content[j];
    if (!b || b.type !== 'tool_result' || b.content.length < minChars || b.content.startsWith(STUB_PREFIX)) continue;
    const content = [...m.content];
    content[j] = { ...b, content: stubFor(b, calls.get(b.tool_use_id)) };
    out[i] = { role: 'user', content };
    cleared++;
    firstChanged = Math.min(firstChanged, i);
  }
  if (cleared === 0) return { messages, cleared: 0, savedTokens: 0, firstChanged };
  return { messages: out, cleared, savedTokens: estimateTokens(messages) - estimateTokens(out), firstChanged };
}
