import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderRunFolder } from '../../agent/evidence/render-run.js';
import { UsageError } from './usage-error.js';

/** `proofpr report RUN_DIR`: re-render report.html and summary.md from the run's evidence and transcript. */
export async function reportCommand(dir: string, write: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const runDir = resolve(dir);
  if (!existsSync(join(runDir, 'evidence.json')))
    throw new UsageError(`RUN_DIR ${dir}: no evidence.json there (give a folder written by proofpr run)`);
  const diffPath = join(runDir, 'changes.diff');
  try {
    await renderRunFolder(runDir, existsSync(diffPath) ? { diff: readFileSync(diffPath, 'utf8') } : {});
  } catch (e) {
    throw new UsageError(`RUN_DIR ${dir}: ${(e as Error).message}`);
  }
  write(`${join(runDir, 'report.html')}\n`);
  return 0;
}
