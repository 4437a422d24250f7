/**
 * `proofpr report RUN_DIR`: (re)render summary.md and report.html from a run folder's evidence.json and
 * transcript.jsonl. The transcript may end in a half-written line (a crash mid-write): that line is dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { logger } from '../../log.js';
import type { RunEvent } from '../events.js';
import { renderReportHtml } from './report-html.js';
import { renderSummaryMd, type SummaryOptions } from './summary-md.js';
import type { Evidence } from './types.js';

const log = logger('evidence');

const EventShape = z.looseObject({ type: z.string().min(1), ts: z.string() });

const EvidenceShape = z.looseObject({
  version: z.literal(1),
  runId: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  verdict: z.enum(['verified', 'unverified', 'aborted', 'error']),
  reason: z.string(),
  task: z.looseObject({ kind: z.enum(['issue', 'prompt', 'sweep']), title: z.string() }),
  repo: z.looseObject({ baseSha: z.string(), branch: z.string() }),
  gates: z.array(z.looseObject({ name: z.string(), passed: z.boolean(), detail: z.string() })),
  testRuns: z.array(z.looseObject({ command: z.string(), treeHash: z.string() })),
  filesChanged: z.array(z.looseObject({ path: z.string(), added: z.number(), removed: z.number() })),
  toolCalls: z.record(z.string(), z.number()),
  denied: z.array(z.looseObject({ tool: z.string(), input: z.string(), rule: z.string(), reason: z.string() })),
  usage: z.looseObject({ turns: z.number(), costUsd: z.number() }),
});

/**
 * Reads transcript.jsonl into events. A last line that does not parse (truncated by a crash) is dropped;
 * a bad line elsewhere is skipped with a warning, so one damaged line never hides the rest of the run.
 */
export function readTranscript(path: string): RunEvent[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const lastIndex = lines.map((l) => l.trim() !== '').lastIndexOf(true);
  const out: RunEvent[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      if (i !== lastIndex) log.warn({ line: i + 1 }, 'transcript line is not JSON; skipped');
      return;
    }
    const ok = EventShape.safeParse(parsed);
    if (ok.success) out.push(ok.data as unknown as RunEvent);
    else log.warn({ line: i + 1 }, 'transcript line is not an event (needs "type" and "ts"); skipped');
  });
  return out;
}

/** Reads and checks runDir/evidence.json; the error names the file and the first bad field. */
export async function readEvidence(runDir: string): Promise<Evidence> {
  const path = join(runDir, 'evidence.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path} cannot be read as JSON (${(e as Error).message}); is ${runDir} a proofpr run folder?`);
  }
  const r = EvidenceShape.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${path}: field ${issue?.path.join('.') || '(root)'} is invalid: ${issue?.message ?? 'unknown problem'}`);
  }
  return r.data as unknown as Evidence;
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
}

export interface RenderRunOptions extends SummaryOptions {
  diff?: string;
}

/** (Re)writes runDir/summary.md and runDir/report.html from evidence.json and transcript.jsonl (optional). */
export async function renderRunFolder(runDir: string, opts: RenderRunOptions = {}): Promise<void> {
  const evidence = await readEvidence(runDir);
  const transcriptPath = join(runDir, 'transcript.jsonl');
  const events = existsSync(transcriptPath) ? readTranscript(transcriptPath) : [];
  const { diff, ...summaryOpts } = opts;
  await writeAtomic(join(runDir, 'summary.md'), renderSummaryMd(evidence, summaryOpts));
  await writeAtomic(join(runDir, 'report.html'), renderReportHtml(evidence, events, diff !== undefined ? { diff } : {}));
}
