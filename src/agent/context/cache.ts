/**
 * Prompt-cache breakpoints. At most 4 per request: last tool, last system block, the previous user turn's
 * last block and the latest user turn's last block (the rolling breakpoint). The reminder is appended
 * after the latest breakpoint, so the next request's prefix (which no longer carries it) is still a hit.
 * The cache key ignores `cache_control` itself, so moving the markers does not change the prefix.
 * Inputs are never mutated: touched messages and blocks are copied.
 */
import type { Message, ToolSchema, UserBlock } from '../../model/model-client.js';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Tool schemas with the breakpoint on the last one (and none elsewhere). */
export function withToolsBreakpoint(schemas: ToolSchema[]): ToolSchema[] {
  return schemas.map((s, i) => {
    const { cache_control: _drop, ...rest } = s;
    return i === schemas.length - 1 ? { ...rest, cache_control: EPHEMERAL } : rest;
  });
}

function hasMarker(m: Message): boolean {
  return typeof m.content !== 'string' && m.content.some((b) => 'cache_control' in b && b.cache_control !== undefined);
}

function stripMarkers(m: Message): Message {
  if (!hasMarker(m)) return m;
  if (m.role === 'user') {
    return {
      role: 'user',
      content: (m.content as UserBlock[]).map((b) => (b.cache_control ? (({ cache_control: _c, ...r }) => r)(b) : b)),
    };
  }
  return {
    role: 'assistant',
    content: m.content.map((b) =>
      b.type !== 'thinking' && b.type !== 'redacted_thinking' && b.cache_control ? (({ cache_control: _c, ...r }) => r)(b) : b,
    ),
  };
}

function userBlocks(m: Message & { role: 'user' }): UserBlock[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content];
}

/** A copy of a user message with the breakpoint on its last block. */
function markLast(m: Message & { role: 'user' }): Message {
  const blocks = userBlocks(m);
  const last = blocks[blocks.length - 1];
  if (!last) return m;
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL };
  return { role: 'user', content: blocks };
}

/** Indexes of the latest and the previous user messages (-1 when absent). */
export function lastUserIndexes(messages: Message[]): { latest: number; previous: number } {
  let latest = -1;
  let previous = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role !== 'user') continue;
    if (latest < 0) latest = i;
    else {
      previous = i;
      break;
    }
  }
  return { latest, previous };
}

/**
 * Messages as sent: old markers removed, breakpoints on the previous and the latest user turn.
 * `anchor` (a user message index) replaces the previous-turn breakpoint for the first request after a
 * microcompact: the prefix up to the last unchanged user turn was written when that turn was the latest,
 * so marking it there reads it from cache instead of rewriting the whole conversation.
 */
export function withRollingBreakpoints(messages: Message[], anchor?: number): Message[] {
  const out = messages.map(stripMarkers);
  const { latest, previous } = lastUserIndexes(out);
  const second = anchor !== undefined && anchor >= 0 && anchor < latest && out[anchor]?.role === 'user' ? anchor : previous;
  for (const i of [second, latest]) {
    const m = out[i];
    if (i >= 0 && m && m.role === 'user') out[i] = markLast(m);
  }
  return out;
}
