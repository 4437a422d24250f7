/**
 * The one writer of a run folder after the run (issue 24): what happens once the run ended (the PR it
 * opened, the WIP ref its work was kept under, what CI said, a sweep's outcome) reaches evidence.json
 * and summary.md only through updateRunFolder, and every string it writes is redacted first.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Evidence } from '../agent/evidence/types.js';
import { writeEvidence } from '../agent/evidence/evidence.js';
import { redactDeep, redactText } from '../secrets/index.js';

export interface RunFolderPatch {
  /** Fields set on evidence.json (pr, wipRef, ci, baseline, reason…); every other field stays as written. */
  evidence?: Partial<Evidence>;
  /** summary.md's new text (the PR body as published); absent: summary.md stays as it is. */
  summaryMd?: string;
}

export interface UpdateRunFolderOptions {
  /** The run's evidence as the caller holds it: used when evidence.json is not on disk (yet). */
  current?: Evidence;
  /** Known secret values to remove besides the token shapes every string is checked for. */
  secrets?: readonly string[];
}

/** Reads the evidence on disk, else the caller's copy; neither is an error that names the folder. */
async function currentEvidence(runDir: string, opts: UpdateRunFolderOptions): Promise<Evidence> {
  const file = join(runDir, 'evidence.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Evidence;
  if (opts.current) return opts.current;
  throw new Error(`${file} does not exist: updateRunFolder changes a run folder the run wrote (pass options.current to create it)`);
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
}

/**
 * Applies `patch` to runDir's evidence.json (and summary.md when given), redacted; returns what is now
 * on disk, so callers hold the same evidence and summary the folder does.
 */
export async function updateRunFolder(
  runDir: string,
  patch: RunFolderPatch,
  opts: UpdateRunFolderOptions = {},
): Promise<{ evidence: Evidence; summaryMd: string }> {
  const secrets = opts.secrets ?? [];
  const before = await currentEvidence(runDir, opts);
  const evidence = redactDeep<Evidence>({ ...before, ...(patch.evidence ?? {}) }, secrets);
  await writeEvidence(runDir, evidence);
  const summaryFile = join(runDir, 'summary.md');
  if (patch.summaryMd !== undefined) {
    const summaryMd = redactText(patch.summaryMd, secrets);
    await writeAtomic(summaryFile, summaryMd);
    return { evidence, summaryMd };
  }
  return { evidence, summaryMd: existsSync(summaryFile) ? await readFile(summaryFile, 'utf8') : '' };
}
