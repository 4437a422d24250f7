/**
 * The watchdog's thread, as source text run with `new Worker(code, { eval: true })`: no file to find at
 * run time, so it works the same from src, from the compiled tree and from the Action's bundle. Plain
 * CommonJS, no imports of the project. Its workerData is WatchdogData (watchdog.ts).
 *
 * Every tick it reads the main thread's heartbeat. Past the limit it fires when the main thread has
 * been silent for staleMs (stuck in a blocking call: its own timers cannot run), or in any case at
 * limit + grace. Firing: SIGKILL to every process group the harness noted, one line on stderr, the
 * evidence stub written to the run folder when the main thread wrote no evidence.json, then the process
 * ends with the exit code. A worker's process.exit() ends only the worker, so the process is ended the
 * documented way WASI offers: proc_exit with returnOnExit false ends the process with that code. Should
 * that ever return, SIGKILL of the process follows.
 */
export const WATCHDOG_WORKER_SOURCE = String.raw`
'use strict';
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const d = workerData;
const beat = new Int32Array(d.heartbeat);
const groups = new Int32Array(d.groups);

// (module (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
//         (memory (export "memory") 1) (func (export "_start") i32.const CODE call 0))
function exitModule(code) {
  const name = (s) => [s.length, ...Buffer.from(s)];
  const imp = [1, ...name('wasi_snapshot_preview1'), ...name('proc_exit'), 0, 0];
  const exp = [2, ...name('memory'), 2, 0, ...name('_start'), 0, 1];
  const body = [0, 65, code & 0x3f, 16, 0, 11];
  const section = (id, bytes) => [id, bytes.length, ...bytes];
  return new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0,
    ...section(1, [2, 96, 1, 127, 0, 96, 0, 0]), ...section(2, imp), ...section(3, [1, 1]),
    ...section(5, [1, 0, 1]), ...section(7, exp), ...section(10, [1, body.length, ...body])]);
}

function endProcess(code) {
  try {
    const { WASI } = require('node:wasi');
    const wasi = new WASI({ version: 'preview1', returnOnExit: false });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(exitModule(code)), wasi.getImportObject());
    wasi.start(instance);
  } catch (e) {
    try { fs.writeSync(2, '[proofpr watchdog] could not end the process with code ' + code + ': ' + e.message + '\n'); } catch {}
  }
  process.kill(process.pid, 'SIGKILL');
}

function killGroups() {
  let n = 0;
  for (let i = 0; i < groups.length; i++) {
    const pid = Atomics.load(groups, i);
    if (pid === 0) continue;
    try { process.kill(-pid, 'SIGKILL'); n++; } catch {}
  }
  return n;
}

function writeStub(reason) {
  if (!d.runDir || !d.evidence) return false;
  const file = path.join(d.runDir, 'evidence.json');
  if (fs.existsSync(file)) return false;
  const ev = Object.assign({}, d.evidence, { endedAt: new Date().toISOString(), verdict: 'aborted', reason });
  const tmp = file + '.watchdog.tmp';
  fs.writeFileSync(tmp, JSON.stringify(ev, null, 2) + '\n');
  fs.renameSync(tmp, file);
  return true;
}

function fire(stuck, elapsed) {
  const killed = killGroups();
  const why = stuck
    ? 'the harness was stuck (its main thread silent for ' + Math.round((elapsed - Atomics.load(beat, 0)) / 1000) + ' s)'
    : 'the run did not end within ' + Math.round(d.graceMs / 1000) + ' s after it';
  const reason = 'the run passed its time limit (' + d.label + ') and ' + why + ': the watchdog killed ' + killed +
    ' process group(s) and ended the process; gates, test runs and usage were not recorded (transcript.jsonl has the events up to then)';
  try { fs.writeSync(2, '[proofpr watchdog] ' + reason + '\n'); } catch {}
  try { writeStub(reason); } catch (e) {
    try { fs.writeSync(2, '[proofpr watchdog] evidence.json could not be written: ' + e.message + '\n'); } catch {}
  }
  endProcess(d.exitCode);
}

function tick() {
  const elapsed = Date.now() - d.t0;
  if (elapsed < d.limitMs) return;
  const stuck = elapsed - Atomics.load(beat, 0) >= d.staleMs;
  if (stuck || elapsed >= d.limitMs + d.graceMs) fire(stuck, elapsed);
}

setInterval(tick, d.tickMs);
`;
