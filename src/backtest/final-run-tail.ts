/**
 * The last line the harness's final test run printed (the run folder's tool-output/final-test-run-N.txt),
 * for a miss whose final run failed: often the line that names the cause (a missing module, a sandbox
 * error) when no counts could be read.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX = 240;

export function finalRunTail(runDir: string): string | undefined {
  const dir = join(runDir, 'tool-output');
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((f) => /^final-test-run-\d+\.txt$/.test(f))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
  const last = files.at(-1);
  if (!last) return undefined;
  const line = readFileSync(join(dir, last), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  return line && line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
