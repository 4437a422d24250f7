/**
 * A fast local token estimate for decisions (when to compact). About 3.6 characters per token for prose
 * and code, 3 for JSON (denser in tokens), plus a small per-block and per-message overhead. It leans high
 * on purpose: the API's count_tokens (src/model/count-tokens.ts) is the precise answer when it matters.
 */
import type { Message, TextBlock, ToolSchema } from '../../model/model-client.js';

const CHARS_PER_TOKEN = 3.6;
const JSON_CHARS_PER_TOKEN = 3;
const PER_BLOCK = 5;
const PER_MESSAGE = 4;
const PER_TOOL = 12;

export interface EstimateInput {
  system?: TextBlock[];
  tools?: ToolSchema[];
  messages: Message[];
}

function text(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function json(value: unknown): number {
  return Math.ceil((JSON.stringify(value ?? null)?.length ?? 0) / JSON_CHARS_PER_TOKEN);
}

/** An image's tokens: the API scales images to about 1.15 megapixels, about 1600 tokens at most. */
const IMAGE_TOKENS = 1600;

/** Estimated input tokens of one message. */
export function estimateMessage(m: Message): number {
  if (typeof m.content === 'string') return PER_MESSAGE + PER_BLOCK + text(m.content.length);
  let n = PER_MESSAGE;
  for (const b of m.content) {
    n += PER_BLOCK;
    if (b.type === 'text') n += text(b.text.length);
    else if (b.type === 'tool_result') n += text(b.content.length) + 8;
    else if (b.type === 'image') n += IMAGE_TOKENS;
    else if (b.type === 'tool_use') n += json(b.input) + text(b.name.length) + 8;
    else if (b.type === 'thinking') n += text(b.thinking.length + b.signature.length) + 20;
    else n += text(b.data.length) + 20;
  }
  return n;
}

/** Estimated tokens of a system prompt. */
export function estimateSystem(system: TextBlock[]): number {
  return system.reduce((n, b) => n + PER_BLOCK + text(b.text.length), 0);
}

/** Estimated tokens of tool definitions. */
export function estimateTools(tools: ToolSchema[]): number {
  return tools.reduce((n, t) => n + PER_TOOL + text(t.name.length + t.description.length) + json(t.input_schema), 0);
}

/** Estimated input tokens of messages, or of a whole request (system + tools + messages). */
export function estimateTokens(input: Message[] | EstimateInput): number {
  if (Array.isArray(input)) return input.reduce((n, m) => n + estimateMessage(m), 0);
  return estimateSystem(input.system ?? []) + estimateTools(input.tools ?? []) + estimateTokens(input.messages);
}
