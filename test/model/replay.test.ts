import { afterEach, describe, expect, it } from '@jest/globals';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stamp, type RunEvent } from '../../src/agent/events.js';
import { createReplayModel } from '../../src/model/replay.js';
import { request } from './helpers.js';
import { tempDir } from '../kit/temp.js';

const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 50, cacheWriteTokens: 0 };
const events: RunEvent[] = [
  stamp({ type: 'run_start', runId: 'r1', task: { kind: 'prompt' }, model: 'claude-sonnet-5-5', root: '/w' }),
  stamp({ type: 'request', turn: 1, messages: 1, estimatedTokens: 100 }),
  stamp({
    type: 'assistant',
    turn: 1,
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }],
    stopReason: 'tool_use',
    usage,
    costUsd: 0.001,
  }),
  stamp({ type: 'tool_result', id: 'toolu_1', name: 'Bash', isError: false, preview: 'ok', durationMs: 5 }),
  stamp({ type: 'assistant', turn: 2, content: [{ type: 'text', text: 'Tests pass.' }], stopReason: 'end_turn', usage, costUsd: 0.001 }),
];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function writeTranscript(lines: string[]): string {
  dir = tempDir('proofpr-replay-');
  const path = join(dir, 'transcript.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('replay model', () => {
  it('replay - answers with the recorded assistant events of a transcript.jsonl, in order', async () => {
    const m = createReplayModel(writeTranscript(events.map((e) => JSON.stringify(e))));
    const r1 = await m.send(request());
    expect(r1.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }]);
    expect(r1.stopReason).toBe('tool_use');
    expect(r1.usage).toEqual(usage);
    expect(r1.model).toBe('claude-sonnet-5-5');
    const r2 = await m.send(request());
    expect(r2.content).toEqual([{ type: 'text', text: 'Tests pass.' }]);
    await expect(m.send(request())).rejects.toThrow('no step for turn 3');
  });

  it('replay - accepts an event list directly', async () => {
    const m = createReplayModel(events);
    expect((await m.send(request())).stopReason).toBe('tool_use');
    expect(m.remaining()).toBe(1);
  });

  it('replay - a line that is not JSON is named by file and line number', () => {
    const path = writeTranscript([JSON.stringify(events[0]), '{oops']);
    expect(() => createReplayModel(path)).toThrow(`${path}:2: not a JSON line`);
  });

  it('replay - a malformed assistant event names the field', () => {
    expect(() => createReplayModel([{ type: 'assistant', content: [{ type: 'text' }], stopReason: 'end_turn', usage: {} }])).toThrow(
      /event 0: assistant event field content\.0\.text/,
    );
  });

  it('replay - a transcript without assistant events is an error', () => {
    expect(() => createReplayModel([events[0]])).toThrow(/no assistant events/);
  });
});
