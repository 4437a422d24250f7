/**
 * Folds the raw Messages stream events into the final assistant message: text, tool_use (input rebuilt from
 * input_json_delta chunks), thinking (with its signature), stop reason and usage. Reports progress to onDelta.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Logger } from 'pino';
import { ModelError, emptyUsage, type AssistantBlock, type StreamDelta, type Usage } from './model-client.js';

type RawEvent = Anthropic.Messages.RawMessageStreamEvent;

type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; initial: unknown }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'other'; type: string };

export interface AssembledMessage {
  content: AssistantBlock[];
  stopReason: string;
  usage: Usage;
  model: string;
}

export interface MessageAssembler {
  push(event: RawEvent): void;
  /** The finished message; throws ModelError('stream_broken') when message_stop never came. */
  finish(): AssembledMessage;
}

export function assembleMessage(log: Logger, onDelta?: (delta: StreamDelta) => void): MessageAssembler {
  const drafts = new Map<number, Draft>();
  const usage = emptyUsage();
  let model = '';
  let stopReason = '';
  let started = false;
  let stopped = false;

  const emit = (delta: StreamDelta): void => {
    if (!onDelta) return;
    try {
      onDelta(delta);
    } catch (err) {
      log.warn({ err }, 'stream display callback threw; ignored');
    }
  };

  const push = (ev: RawEvent): void => {
    switch (ev.type) {
      case 'message_start': {
        started = true;
        model = ev.message.model;
        const u = ev.message.usage;
        usage.inputTokens = u.input_tokens ?? 0;
        usage.outputTokens = u.output_tokens ?? 0;
        usage.cacheReadTokens = u.cache_read_input_tokens ?? 0;
        usage.cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
        noteThinkingTokens(usage, u.output_tokens_details);
        return;
      }
      case 'content_block_start': {
        drafts.set(ev.index, startDraft(ev.content_block, emit, log));
        return;
      }
      case 'content_block_delta': {
        const d = drafts.get(ev.index);
        const delta = ev.delta;
        if (!d) throw new ModelError('stream_broken', `stream sent a delta for content block ${ev.index} before its start`);
        if (delta.type === 'text_delta' && d.kind === 'text') {
          d.text += delta.text;
          emit({ type: 'text', text: delta.text });
        } else if (delta.type === 'input_json_delta' && d.kind === 'tool_use') d.json += delta.partial_json;
        else if (delta.type === 'thinking_delta' && d.kind === 'thinking') d.thinking += delta.thinking;
        else if (delta.type === 'signature_delta' && d.kind === 'thinking') d.signature = delta.signature;
        return;
      }
      case 'message_delta': {
        if (ev.delta.stop_reason) stopReason = ev.delta.stop_reason;
        const u = ev.usage;
        usage.outputTokens = u.output_tokens ?? usage.outputTokens;
        if (u.input_tokens != null) usage.inputTokens = u.input_tokens;
        if (u.cache_read_input_tokens != null) usage.cacheReadTokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens != null) usage.cacheWriteTokens = u.cache_creation_input_tokens;
        noteThinkingTokens(usage, u.output_tokens_details);
        return;
      }
      case 'message_stop':
        stopped = true;
        return;
      default:
        return; // content_block_stop: nothing to do, inputs are parsed at the end
    }
  };

  const finish = (): AssembledMessage => {
    if (!started) throw new ModelError('stream_broken', 'stream ended before message_start');
    if (!stopped) throw new ModelError('stream_broken', 'stream ended before message_stop (connection closed mid-message)');
    const content: AssistantBlock[] = [];
    for (const index of [...drafts.keys()].sort((a, b) => a - b)) {
      const d = drafts.get(index)!;
      if (d.kind === 'text') content.push({ type: 'text', text: d.text });
      else if (d.kind === 'thinking') content.push({ type: 'thinking', thinking: d.thinking, signature: d.signature });
      else if (d.kind === 'redacted_thinking') content.push({ type: 'redacted_thinking', data: d.data });
      else if (d.kind === 'tool_use') content.push({ type: 'tool_use', id: d.id, name: d.name, input: parseInput(d, stopReason, log) });
    }
    return { content, stopReason: stopReason || 'end_turn', usage, model };
  };

  return { push, finish };
}

/** The draft a content_block_start opens (a tool call is announced to the display at once). */
function startDraft(
  b: Extract<RawEvent, { type: 'content_block_start' }>['content_block'],
  emit: (delta: StreamDelta) => void,
  log: Logger,
): Draft {
  if (b.type === 'text') return { kind: 'text', text: b.text ?? '' };
  if (b.type === 'thinking') return { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
  if (b.type === 'redacted_thinking') return { kind: 'redacted_thinking', data: b.data };
  if (b.type === 'tool_use') {
    emit({ type: 'tool_use_start', name: b.name, id: b.id });
    return { kind: 'tool_use', id: b.id, name: b.name, json: '', initial: b.input };
  }
  log.warn({ blockType: b.type }, 'unsupported content block type in the stream; dropped');
  return { kind: 'other', type: b.type };
}

/** The API's count of output tokens spent thinking (usage.output_tokens_details), when it sends one. */
function noteThinkingTokens(usage: Usage, details: { thinking_tokens?: number | null } | null | undefined): void {
  const n = details?.thinking_tokens;
  if (typeof n === 'number') usage.thinkingTokens = n;
}

function parseInput(d: Extract<Draft, { kind: 'tool_use' }>, stopReason: string, log: Logger): unknown {
  if (d.json.trim() === '') return d.initial ?? {};
  try {
    return JSON.parse(d.json) as unknown;
  } catch {
    // A max_tokens cut can leave the last tool input unfinished; the tool's own validation answers the model.
    log.warn({ tool: d.name, stopReason, chars: d.json.length }, 'tool_use input is not complete JSON; using {}');
    return {};
  }
}
