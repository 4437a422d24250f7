/** Reading a Messages API request as the fake model sees it, and the replies it sends. */
export interface ToolResultSeen {
  id: string;
  isError: boolean;
  text: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content ?? '');
  return content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : JSON.stringify(b))).join('\n');
}

/** The tool results in the request's last user message. */
export function lastToolResults(body: Record<string, unknown>): ToolResultSeen[] {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || !Array.isArray(last.content)) return [];
  return (last.content as Array<Record<string, unknown>>)
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ id: String(b.tool_use_id), isError: b.is_error === true, text: textOf(b.content) }));
}

export const toolUseReply = (id: string, name: string, input: unknown): unknown => ({
  content: [{ type: 'tool_use', id, name, input }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 100, output_tokens: 20 },
});

export const doneReply = (): unknown => ({
  content: [{ type: 'text', text: 'Done: median() now sorts numerically; the tests pass.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 100, output_tokens: 20 },
});

/** Replaces {NAME} placeholders in every string of `v`. */
export function fill(v: unknown, vars: Record<string, string>): unknown {
  if (typeof v === 'string') return v.replace(/\{([A-Z]+)\}/g, (m, k: string) => vars[k] ?? m);
  if (Array.isArray(v)) return v.map((x) => fill(x, vars));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, vars)]));
  return v;
}

/** The text of the newest user message other than its tool results (gate feedback, reminders). */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user') return '';
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return '';
  return (last.content as Array<Record<string, unknown>>)
    .filter((b) => b.type !== 'tool_result')
    .map((b) => (typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}
