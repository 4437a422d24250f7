/** The patch behind the unit tier's guard (test/kit/unit-guard.ts), and its undo. */
import type * as ChildProcessModule from 'node:child_process';
import type * as NetModule from 'node:net';

const KEY = Symbol.for('proofpr.test.unitGuard');
const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

// The saved originals live on the core module object itself: it is shared by every test file a jest
// worker runs (each file has its own globalThis), so a file of another tier can always undo the patch.
type Saved = { net: typeof NetModule; fns: Record<string, unknown>; listen: unknown; protoSpawn: unknown };
type Holder = { [KEY]?: Saved };

// What the guard refused in the current file, even where the code under test caught the error (a probe
// that then reports "no bwrap here" would otherwise make the file pass without testing anything).
const REFUSED = Symbol.for('proofpr.test.unitGuardRefused');
type Refused = { [REFUSED]?: string[] };

/** The calls refused since the last call, emptied. */
export function takeRefusals(): string[] {
  const g = globalThis as Refused;
  const out = g[REFUSED] ?? [];
  g[REFUSED] = [];
  return out;
}

function refusal(what: string): () => never {
  return () => {
    const g = globalThis as Refused;
    (g[REFUSED] ??= []).push(what);
    throw new Error(
      `unit-tier test called ${what}: unit tests start no process and open no socket. ` +
        'Rename the file to *.integration.test.ts (real git, real processes, fakes on 127.0.0.1) or *.e2e.test.ts (a whole proofpr run).',
    );
  };
}

export function patchUnitGuard(cp: typeof ChildProcessModule, netModule: typeof NetModule): void {
  const holder = cp as unknown as Holder;
  if (holder[KEY]) return;
  const mutableCp = cp as unknown as Record<string, unknown>;
  const fns: Record<string, unknown> = {};
  for (const name of SPAWNERS) {
    fns[name] = mutableCp[name];
    mutableCp[name] = refusal(`child_process.${name}`);
  }
  const proto = cp.ChildProcess.prototype as unknown as Record<string, unknown>;
  const serverProto = netModule.Server.prototype as unknown as Record<string, unknown>;
  holder[KEY] = { net: netModule, fns, listen: serverProto.listen, protoSpawn: proto.spawn };
  proto.spawn = refusal('ChildProcess.spawn');
  serverProto.listen = refusal('net.Server.listen');
}

/** The module namespace unit-tier files get for `node:child_process`: every way to start a process throws. */
export function refusingChildProcess(cp: typeof ChildProcessModule): Record<string, unknown> {
  const ns: Record<string, unknown> = { ...cp };
  for (const name of SPAWNERS) ns[name] = refusal(`child_process.${name}`);
  return { ...ns, default: ns };
}

export function restoreUnitGuard(cp: typeof ChildProcessModule): void {
  const holder = cp as unknown as Holder;
  const saved = holder[KEY];
  if (!saved) return;
  const mutableCp = cp as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(saved.fns)) mutableCp[name] = fn;
  (cp.ChildProcess.prototype as unknown as Record<string, unknown>).spawn = saved.protoSpawn;
  (saved.net.Server.prototype as unknown as Record<string, unknown>).listen = saved.listen;
  delete holder[KEY];
}
