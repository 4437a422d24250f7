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

/** Waits up to `ms` for pid to end: SIGKILL is delivered when the process is next scheduled, not when kill() returns. */
export async function endedWithin(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((res) => setTimeout(res, 25));
  }
  return true;
}
