import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../agent/events.js';
import { Ledger, createTranscriptWriter } from '../agent/evidence/ledger.js';
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
  close(): Promise<void>;
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
    // Every file of the run folder is written redacted as it is written (tool outputs line by line through
    // src/secrets/redacting-writer.ts): nothing is left to redact once the run is over, or when it is killed.
    close: () => transcript.close(),
  };
}
