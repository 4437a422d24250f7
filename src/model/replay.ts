/**
 * Replays a recorded run: the `assistant` events of a transcript.jsonl (or of an event list), in order, as a
 * scripted model. This is what the offline demo ships. The transcript is read and checked up front, so a
 * bad file fails at once with its line number.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AssistantBlock, Usage } from './model-client.js';
import { createScriptedModel, type ScriptedModel, type ScriptStep } from './scripted.js';

const block = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
]);

const assistantEvent = z.object({
  type: z.literal('assistant'),
  content: z.array(block),
  stopReason: z.string(),
  usage: z
    .object({ inputTokens: z.number(), outputTokens: z.number(), cacheReadTokens: z.number(), cacheWriteTokens: z.number() })
    .partial(),
});

type RecordedEvent = { type: string } & Record<string, unknown>;

export function createReplayModel(source: string | readonly unknown[]): ScriptedModel {
  const events = typeof source === 'string' ? readTranscript(source) : source.map((e, i) => ({ where: `event ${i}`, value: e }));
  const steps: ScriptStep[] = [];
  let model: string | undefined;
  for (const { where, value } of events) {
    const ev = value as RecordedEvent;
    if (ev?.type === 'run_start' && typeof ev.model === 'string') model = ev.model;
    if (ev?.type !== 'assistant') continue;
    const r = assistantEvent.safeParse(ev);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new Error(`replay: ${where}: assistant event field ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
    }
    const usage: Partial<Usage> = r.data.usage;
    steps.push({ content: r.data.content as AssistantBlock[], stopReason: r.data.stopReason, usage, ...(model ? { model } : {}) });
  }
  if (steps.length === 0) throw new Error(`replay: no assistant events in ${typeof source === 'string' ? source : 'the event list'}`);
  return createScriptedModel(steps);
}

function readTranscript(path: string): { where: string; value: unknown }[] {
  const text = readFileSync(path, 'utf8');
  const out: { where: string; value: unknown }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${path}:${i + 1}`;
    try {
      out.push({ where, value: JSON.parse(line) as unknown });
    } catch {
      throw new Error(`replay: ${where}: not a JSON line (a transcript.jsonl has one event object per line)`);
    }
  });
  return out;
}
