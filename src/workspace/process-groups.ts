/**
 * The process groups the harness started (every command of exec.ts runs in its own), in memory another
 * thread can read: the run watchdog (src/run/watchdog.ts) kills them from its worker thread when the
 * main thread is stuck and cannot. A fixed table of slots in a SharedArrayBuffer; 0 is a free slot.
 * Process-wide: when the watchdog ends the process, every group it started goes with it.
 */
export const GROUP_SLOTS = 1024;

const buffer = new SharedArrayBuffer(GROUP_SLOTS * Int32Array.BYTES_PER_ELEMENT);
const slots = new Int32Array(buffer);

/** The shared table, for the watchdog's worker. */
export function processGroupsBuffer(): SharedArrayBuffer {
  return buffer;
}

/** Notes a live group (its leader's pid); false when the table is full (the group is then not killed by the watchdog). */
export function registerGroup(pid: number): boolean {
  for (let i = 0; i < GROUP_SLOTS; i++) if (Atomics.compareExchange(slots, i, 0, pid) === 0) return true;
  return false;
}

/** Forgets a group once its leader has exited and the group was killed. */
export function releaseGroup(pid: number): void {
  for (let i = 0; i < GROUP_SLOTS; i++) if (Atomics.compareExchange(slots, i, pid, 0) === pid) return;
}

/** The groups noted now (for tests and logs). */
export function liveGroups(): number[] {
  const out: number[] = [];
  for (let i = 0; i < GROUP_SLOTS; i++) {
    const v = Atomics.load(slots, i);
    if (v !== 0) out.push(v);
  }
  return out;
}
