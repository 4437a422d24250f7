/** Processes seen from a test. */
import { readFileSync } from 'node:fs';

/** True while pid runs (a zombie no one reaped yet counts as ended: it was killed and runs nothing). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}
