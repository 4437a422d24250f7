/** The second look (seed 000 §6.2): what it reports. */
import type { GateResult } from '../events.js';
import type { Usage } from '../../model/model-client.js';

export type FindingSeverity = 'high' | 'medium' | 'low';

export interface Finding {
  severity: FindingSeverity;
  /** The file the finding is about ('' when it is about the change as a whole). */
  file: string;
  text: string;
}

export interface SecondLook {
  /** done: it answered; skipped: not run (no budget left); failed: it ran but gave no readable answer. */
  status: 'done' | 'skipped' | 'failed';
  findings: Finding[];
  /** Why it was skipped or failed. */
  reason?: string;
  usage: Usage;
  costUsd: number;
  turns: number;
  /** With `review.block_on: high`: the second-look gate. */
  gate?: GateResult;
}
