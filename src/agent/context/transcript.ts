/**
 * The conversation rendered as plain text for the summary request. The summary is asked without tools,
 * and the API refuses tool_use/tool_result blocks without tool definitions, so the history travels as a
 * transcript. Big payloads are clipped; over the budget, the oldest rounds after the task are dropped whole.
 */
import type { Message } from '../../model/model-client.js';

const TEXT_CHARS = 4_000;
const RESULT_CHARS = 1_500;
const INPUT_CHARS = 300;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters clipped …]` : text;
}

/** Rendered entries per message, tool names resolved across the whole history. */
function entriesByMessage(messages: Message[]): string[][] {
  const names = new Map<string, string>();
  return messages.map((m) => {
    if (typeof m.content === 'string') return [`[${m.role}] ${clip(m.content, TEXT_CHARS)}`];
    const out: string[] = [];
    for (const b of m.content) {
      if (b.type === 'text') out.push(`[${m.role}] ${clip(b.text, TEXT_CHARS)}`);
      else if (b.type === 'tool_use') {
        names.set(b.id, b.name);
        out.push(`[tool call ${b.name}] ${clip(JSON.stringify(b.input ?? {}) ?? '{}', INPUT_CHARS)}`);
      } else if (b.type === 'tool_result') {
        const name = names.get(b.tool_use_id) ?? 'tool';
        out.push(`[${name} result${b.is_error ? ' (error)' : ''}] ${clip(b.content, RESULT_CHARS)}`);
      }
    }
    return out;
  });
}

/**
 * The history in API rounds: the first user turn (the task, or the previous compaction's hand-off) and
 * then one round per assistant turn with the user turn(s) that answer it. Each is a list of entries.
 */
export function transcriptRounds(messages: Message[]): { first: string[]; rounds: string[][] } {
  const byMessage = entriesByMessage(messages);
  const rounds: string[][] = [];
  messages.forEach((m, i) => {
    if (i === 0) return;
    const last = rounds[rounds.length - 1];
    if (m.role === 'assistant' || !last) rounds.push([...(byMessage[i] ?? [])]);
    else last.push(...(byMessage[i] ?? []));
  });
  return { first: byMessage[0] ?? [], rounds };
}

export interface RenderedTranscript {
  text: string;
  /** Rounds (whole or in part) in the text. */
  rounds: number;
  /** Rounds in the history. */
  total: number;
  /** Characters of each round in the text, oldest first. */
  sizes: number[];
}

/**
 * Renders the history as text of at most about `maxChars` characters: the first turn always, then the
 * latest rounds that fit, whole (the newest one in part when even it does not fit); `skipOldest` rounds
 * of those that would fit are left out too (the summary request's prompt-too-long retry).
 */
export function renderRounds(messages: Message[], maxChars: number, skipOldest = 0): RenderedTranscript {
  const { first, rounds } = transcriptRounds(messages);
  const head = first.join('\n\n');
  const kept: string[][] = [];
  let used = head.length;
  for (let i = rounds.length - 1; i >= 0; i--) {
    const round = rounds[i] ?? [];
    const size = round.reduce((n, e) => n + e.length + 2, 0);
    if (used + size <= maxChars) {
      kept.unshift(round);
      used += size;
      continue;
    }
    if (kept.length === 0) {
      // Even the newest round is too big: its latest entries that fit.
      const part: string[] = [];
      for (let j = round.length - 1; j >= 0 && used + (round[j]?.length ?? 0) + 2 <= maxChars; j--) {
        part.unshift(round[j] ?? '');
        used += (round[j]?.length ?? 0) + 2;
      }
      if (part.length > 0) kept.unshift(part);
    }
    break;
  }
  const shown = kept.slice(Math.min(skipOldest, kept.length));
  const dropped = rounds.length - shown.length;
  const middle = dropped > 0 ? [`[… ${dropped} earlier rounds omitted to fit …]`] : [];
  return {
    text: [head, ...middle, ...shown.flat()].filter(Boolean).join('\n\n'),
    rounds: shown.length,
    total: rounds.length,
    sizes: shown.map((r) => r.reduce((n, e) => n + e.length + 2, 0)),
  };
}

/** Renders the history as text of at most about `maxChars` characters (the first turn is always kept). */
export function renderTranscript(messages: Message[], maxChars: number): string {
  return renderRounds(messages, maxChars).text;
}
