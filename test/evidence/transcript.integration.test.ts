import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { createTranscriptWriter, Ledger } from '../../src/agent/evidence/ledger.js';
import { readTranscript } from '../../src/agent/evidence/render-run.js';
import type { RunEvent } from '../../src/agent/events.js';
import { sampleEvents } from './events-fixture.js';
import { tempDir } from '../kit/temp.js';

const SECRET = 'sup3r-s3cret-value-123';

describe('ledger and transcript', () => {
  it('ledger - keeps events in order and tells a listener about each', () => {
    const seen: string[] = [];
    const ledger = new Ledger((ev) => seen.push(ev.type));
    for (const ev of sampleEvents().slice(0, 3)) ledger.append(ev);
    expect(ledger.events().map((e) => e.type)).toEqual(['run_start', 'request', 'assistant']);
    expect(seen).toEqual(['run_start', 'request', 'assistant']);
  });

  it('transcript - each write is a complete JSON line on disk before close', async () => {
    const path = join(tempDir('proofpr-tr-'), 'run', 'transcript.jsonl');
    const w = createTranscriptWriter(path, []);
    const events = sampleEvents();
    for (const ev of events) w.write(ev);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(events);
    await w.close();
    w.write(events[0] as RunEvent);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(events.length + 1);
  });

  it('transcript - redacts known secrets and token shapes in every field, keeping valid JSON', async () => {
    const path = join(tempDir('proofpr-tr-'), 'transcript.jsonl');
    const w = createTranscriptWriter(path, [SECRET, 'short']);
    w.write({ type: 'tool_call', ts: 't', id: '1', name: 'Bash', input: { command: `echo ${SECRET} "quoted"` } });
    w.write({
      type: 'tool_result',
      ts: 't',
      id: '1',
      name: 'Bash',
      isError: false,
      preview: `token ghp_${'a'.repeat(36)} and Authorization: Bearer abc.def-ghi_jkl`,
      durationMs: 1,
    });
    w.write({ type: 'notice', ts: 't', message: 'a short word stays' });
    await w.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('a'.repeat(36));
    expect(text).not.toContain('abc.def-ghi_jkl');
    expect(text).toContain('short word');
    const evs = readTranscript(path);
    expect(evs).toHaveLength(3);
    expect((evs[0] as Extract<RunEvent, { type: 'tool_call' }>).input).toEqual({ command: 'echo [REDACTED] "quoted"' });
    expect((evs[1] as Extract<RunEvent, { type: 'tool_result' }>).preview).toBe(
      'token ghp_[REDACTED] and Authorization: Bearer [REDACTED]',
    );
  });

  it('transcript - a process killed right after writing leaves only complete lines', () => {
    const dir = tempDir('proofpr-tr-');
    const bundle = join(dir, 'writer.mjs');
    const src = join(dir, 'entry.ts');
    writeFileSync(
      src,
      `import { createTranscriptWriter } from ${JSON.stringify(join(process.cwd(), 'src/agent/evidence/ledger.ts'))};\n` +
        `const w = createTranscriptWriter(process.argv[2], []);\n` +
        `for (let i = 0; i < 200; i++) w.write({ type: 'notice', ts: String(i), message: 'x'.repeat(5000) });\n` +
        `process.kill(process.pid, 'SIGKILL');\n`,
    );
    buildSync({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
    const out = join(dir, 'transcript.jsonl');
    const r = spawnSync(process.execPath, [bundle, out]);
    expect(r.signal).toBe('SIGKILL');
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(200);
    for (const l of lines) expect(JSON.parse(l).type).toBe('notice');
  });

  it('readTranscript - drops a truncated last line and keeps the rest', () => {
    const path = join(tempDir('proofpr-tr-'), 'transcript.jsonl');
    const events = sampleEvents().slice(0, 4);
    writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    appendFileSync(path, '{"type":"tool_result","ts":"2025-01-01T00:00:0');
    expect(readTranscript(path)).toEqual(events);
  });

  it('readTranscript - skips a line that is not an event', () => {
    const path = join(tempDir('proofpr-tr-'), 'transcript.jsonl');
    writeFileSync(path, '{"type":"notice","ts":"t","message":"a"}\nnot json\n{"no":"type"}\n{"type":"notice","ts":"t2","message":"b"}\n');
    expect(readTranscript(path).map((e) => e.ts)).toEqual(['t', 't2']);
  });
});
