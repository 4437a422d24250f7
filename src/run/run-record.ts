import { mkdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { RunEvent } from '../agent/events.js';
import { Ledger, createTranscriptWriter, type TranscriptWriter } from '../agent/evidence/ledger.js';
import { logger } from '../log.js';
import { secretValues } from '../secrets/index.js';
import type { RunTaskInput } from './run-task-types.js';

const log = logger('run-task');

/** Where a run's events go: the ledger (evidence), the transcript (redacted) and the caller's listener. */
export interface RunRecord {
  readonly ledger: Ledger;
  /** Values redacted from everything written (transcript, run folder). */
  readonly secrets: readonly string[];
  record(ev: RunEvent): void;
  /** Another transcript in the run folder (a sub-agent's, `subagents/<id>.jsonl`), redacted like transcript.jsonl. */
  openTranscript(relPath: string): TranscriptWriter;
  close(): Promise<void>;
}

/** `relPath` inside the run folder; a path that would leave it is an error (the callers build it from safe parts). */
function inRunDir(runDir: string, relPath: string): string {
  const path = resolve(runDir, relPath);
  if (!path.startsWith(`${resolve(runDir)}${sep}`)) throw new Error(`a transcript path must stay inside the run folder: ${relPath}`);
  return path;
}

/** Creates the run folder and opens its transcript. */
export async function openRunRecord(input: Pick<RunTaskInput, 'runDir' | 'gitToken' | 'onEvent'>): Promise<RunRecord> {
  await mkdir(input.runDir, { recursive: true });
  const secrets = secretValues(process.env, input.gitToken ? [input.gitToken] : []);
  const transcript = createTranscriptWriter(join(input.runDir, 'transcript.jsonl'), secrets);
  const ledger = new Ledger();
  return {
    ledger,
    secrets,
    record(ev) {
      ledger.append(ev);
      transcript.write(ev);
      try {
        input.onEvent?.(ev);
      } catch (e) {
        log.warn({ err: (e as Error).message }, 'onEvent listener threw');
      }
    },
    openTranscript: (relPath) => createTranscriptWriter(inRunDir(input.runDir, relPath), secrets),
    // Every file of the run folder is written redacted as it is written (tool outputs line by line through
    // src/secrets/redacting-writer.ts): nothing is left to redact once the run is over, or when it is killed.
    close: () => transcript.close(),
  };
}
