/**
 * The conversation rendered as plain text for the summary request. The summary is asked without tools,
 * and the API refuses tool_use/tool_result blocks without tool definitions, so the history travels as a
 * transcript. Big payloads are clipped; over the budget, the oldest entries after the task are dropped.
 */
import type { Message } from '../../model/model-client.js';

const TEXT_CHARS = 4_000;
const RESULT_CHARS = 1_500;
const INPUT_CHARS = 300;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters clipped …]` : text;
}

function entries(messages: Message[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') {
      out.push(`[${m.role}] ${clip(m.content, TEXT_CHARS)}`);
      continue;
    }
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
  }
  return out;
}

/** Renders the history as text of at most about `maxChars` characters (the first entry is always kept). */
export function renderTranscript(messages: Message[], maxChars: number): string {
  const all = entries(messages);
  const first = all[0] ?? '';
  const kept: string[] = [];
  let used = first.length;
  for (let i = all.length - 1; i >= 1; i--) {
    const e = all[i] ?? '';
    if (used + e.length + 2 > maxChars) break;
    kept.unshift(e);
    used += e.length + 2;
  }
  const dropped = all.length - 1 - kept.length;
  const middle = dropped > 0 ? [`[… ${dropped} earlier entries omitted to fit …]`] : [];
  return [first, ...middle, ...kept].join('\n\n');
}
