/**
 * Turns a complete Messages API message object into the server-sent events the streaming API would send:
 * message_start, content_block_start / _delta / _stop per block (text, tool_use input and thinking split into
 * several deltas), a ping, message_delta with stop_reason and usage, message_stop. Used by the fake server.
 */
import { z } from 'zod';

const messageSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable().optional(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
    })
    .optional(),
});

export type FakeMessage = z.infer<typeof messageSchema>;

export function parseFakeMessage(value: unknown): FakeMessage {
  const r = messageSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `fake message: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'} (expected { content: [{ type, … }], stop_reason?, usage? })`,
    );
  }
  return r.data;
}

export function messageToSse(value: unknown, chunkSize = 16): string {
  const m = parseFakeMessage(value);
  const out: string[] = [];
  const send = (type: string, data: Record<string, unknown>): void => {
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const hasToolUse = m.content.some((b) => b.type === 'tool_use');
  const usage = {
    input_tokens: m.usage?.input_tokens ?? 10,
    cache_creation_input_tokens: m.usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: m.usage?.cache_read_input_tokens ?? 0,
  };
  send('message_start', {
    message: {
      id: m.id ?? 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: m.model ?? 'claude-fake',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  m.content.forEach((block, index) => {
    const { start, deltas } = splitBlock(block, chunkSize);
    send('content_block_start', { index, content_block: start });
    if (index === 0) send('ping', {});
    for (const delta of deltas) send('content_block_delta', { index, delta });
    send('content_block_stop', { index });
  });
  if (m.content.length === 0) send('ping', {});
  send('message_delta', {
    delta: { stop_reason: m.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'), stop_sequence: null },
    usage: { output_tokens: m.usage?.output_tokens ?? 5 },
  });
  send('message_stop', {});
  return out.join('');
}

type Block = FakeMessage['content'][number];

function splitBlock(block: Block, size: number): { start: Record<string, unknown>; deltas: Record<string, unknown>[] } {
  if (block.type === 'text') {
    const text = String(block.text ?? '');
    return { start: { type: 'text', text: '' }, deltas: chunks(text, size).map((t) => ({ type: 'text_delta', text: t })) };
  }
  if (block.type === 'tool_use') {
    const json = JSON.stringify(block.input ?? {});
    return {
      start: { type: 'tool_use', id: block.id ?? 'toolu_fake', name: block.name, input: {} },
      deltas: [
        { type: 'input_json_delta', partial_json: '' },
        ...chunks(json, size).map((j) => ({ type: 'input_json_delta', partial_json: j })),
      ],
    };
  }
  if (block.type === 'thinking') {
    const thinking = String(block.thinking ?? '');
    return {
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [
        ...chunks(thinking, size).map((t) => ({ type: 'thinking_delta', thinking: t })),
        { type: 'signature_delta', signature: String(block.signature ?? 'sig_fake') },
      ],
    };
  }
  return { start: block, deltas: [] };
}

function chunks(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}
