/**
 * The append-only ledger of a run's events, and the transcript writer that mirrors it to
 * transcript.jsonl (CONTRACT §4): one JSON object per line, written synchronously per event so a
 * crash leaves only complete lines, with secrets redacted before anything touches the disk.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunEvent } from '../events.js';
import { redactDeep as redactValue } from '../../secrets/index.js';

export class Ledger {
  private readonly list: RunEvent[] = [];

  constructor(private readonly onAppend?: (ev: RunEvent) => void) {}

  append(ev: RunEvent): void {
    this.list.push(ev);
    this.onAppend?.(ev);
  }

  events(): readonly RunEvent[] {
    return this.list;
  }
}

export interface TranscriptWriter {
  /** Appends one redacted JSON line; returns once the bytes are handed to the OS. Ignored after close(). */
  write(ev: RunEvent): void;
  close(): Promise<void>;
}

/** Serializes one event as a transcript line (no trailing newline), with every string redacted. */
export function transcriptLine(ev: RunEvent, secrets: readonly string[]): string {
  return JSON.stringify(redactValue(ev, secrets));
}

/**
 * Opens `path` for appending (creating its folder). Each write() is a single synchronous write of a
 * complete line, so whatever happens after it returns, the file holds whole lines only.
 */
export function createTranscriptWriter(path: string, secrets: readonly string[] = []): TranscriptWriter {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, 'a');
  return {
    write(ev: RunEvent): void {
      if (fd === undefined) return;
      const bytes = Buffer.from(transcriptLine(ev, secrets) + '\n', 'utf8');
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    },
    close(): Promise<void> {
      if (fd !== undefined) {
        closeSync(fd);
        fd = undefined;
      }
      return Promise.resolve();
    },
  };
}
