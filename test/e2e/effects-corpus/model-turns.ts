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

/** Tokens a turn reports (what the run is billed for it). */
export interface TurnUsage {
  input: number;
  output: number;
}

const SMALL: TurnUsage = { input: 100, output: 20 };
const usageOf = (u: TurnUsage): { input_tokens: number; output_tokens: number } => ({ input_tokens: u.input, output_tokens: u.output });

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

/** One turn asking for one or more tool calls (side by side in the same turn). */
export const toolUsesReply = (uses: ToolUse[], usage: TurnUsage = SMALL): unknown => ({
  content: uses.map((u) => ({ type: 'tool_use', ...u })),
  stop_reason: 'tool_use',
  usage: usageOf(usage),
});

export const toolUseReply = (id: string, name: string, input: unknown, usage: TurnUsage = SMALL): unknown =>
  toolUsesReply([{ id, name, input }], usage);

export const doneReply = (usage: TurnUsage = SMALL): unknown => ({
  content: [{ type: 'text', text: 'Done: median() now sorts numerically; the tests pass.' }],
  stop_reason: 'end_turn',
  usage: usageOf(usage),
});

/** The text of the first user message (a sub-agent's is the prompt its Task call gave it). */
export function firstUserText(body: Record<string, unknown>): string {
  const first = (body.messages as Array<{ role: string; content: unknown }>)[0];
  return first && first.role === 'user' ? textOf(first.content) : '';
}

/** How many turns the conversation already had (assistant messages). */
export const turnsSoFar = (body: Record<string, unknown>): number =>
  (body.messages as Array<{ role: string }>).filter((m) => m.role === 'assistant').length;

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
