/**
 * The model seam. The agent core talks to a model only through this interface, so the loop runs the
 * same against the Anthropic SDK adapter, a scripted fake, or a replayed transcript.
 * Shapes mirror the Messages API (so the SDK adapter passes them through), but nothing here imports it.
 */

export interface CacheControl {
  type: 'ephemeral';
}

export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
  cache_control?: CacheControl;
}

/** Thinking blocks are kept verbatim (with their signature) so they can be sent back unchanged. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Thinking the API returns encrypted; like a thinking block it goes back unchanged. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AssistantBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;
/** An image the user gave (a screenshot attached to the issue), base64 as the Messages API takes it. */
export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string };
  cache_control?: CacheControl;
}

export type UserBlock = TextBlock | ToolResultBlock | ImageBlock;

export type Message = { role: 'user'; content: string | UserBlock[] } | { role: 'assistant'; content: AssistantBlock[] };

export interface ToolSchema {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface ModelRequest {
  model: string;
  system: TextBlock[];
  tools: ToolSchema[];
  messages: Message[];
  maxTokens: number;
  /** Extended thinking with this budget (must stay below maxTokens); absent = off. */
  thinking?: ThinkingSettings;
  /** How much effort the model spends (the API's output_config.effort); absent = the API's default. */
  effort?: Effort;
  signal?: AbortSignal;
}

/** Config `thinking:` (CONTRACT §10): the budget of extended thinking, in tokens (the API needs at least 1024). */
export interface ThinkingSettings {
  budgetTokens: number;
}

export const EFFORTS = ['low', 'medium', 'high', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

/** What the loop adds to each of its requests (the summary request of a compaction goes without). */
export interface ModelSettings {
  thinking?: ThinkingSettings;
  effort?: Effort;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Output tokens spent on thinking (part of outputTokens), when the API reports them or thinking was on. */
  thinkingTokens?: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | string;

export interface ModelResponse {
  content: AssistantBlock[];
  stopReason: StopReason;
  usage: Usage;
  model: string;
  /** Request id from the API, when there is one (for the transcript). */
  requestId?: string;
}

/** Streaming progress for displays; the loop never depends on it. */
export type StreamDelta = { type: 'text'; text: string } | { type: 'tool_use_start'; name: string; id: string };

/**
 * Errors a ModelClient throws. `kind` tells the loop what to do:
 * - prompt_too_long: compact the conversation and retry the turn;
 * - stream_broken: the stream started then broke; retry the whole turn (partial output discarded);
 * - aborted: the caller's AbortSignal fired;
 * - fatal: the SDK's retries are spent or the request is invalid: end the run `aborted`.
 */
export type ModelErrorKind = 'prompt_too_long' | 'stream_broken' | 'aborted' | 'fatal';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelClient {
  /** One streamed turn: request in, the complete assistant message out. */
  send(request: ModelRequest, onDelta?: (delta: StreamDelta) => void): Promise<ModelResponse>;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
