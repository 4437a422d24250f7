/**
 * Plays one batch of cases through `proofpr run` (the CLI as a child process, against the fake Messages
 * API) in a fresh world, one tool call per model turn, and judges every call by its effects right after
 * it ran (before the next turn is answered), then the whole run when it is over.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findCanaries } from './canaries.js';
import { checkCommit, checkRunFolder, lingering, ownRefs, runCommits, type Found } from './final-checks.js';
import type { Listeners } from './listeners.js';
import { doneReply, fill, lastToolResults, lastUserText, toolUseReply, type ToolResultSeen } from './model-turns.js';
import { objectScanner } from './objects.js';
import { harm, type BatchOutcome, type CaseOutcome } from './outcome.js';
import { diffSnapshots, snapshotOutside, type Snapshot } from './snapshot.js';
import { bash, call, type EffectCase, type ToolCall } from './types.js';
import { makeWorld, type World } from './world.js';
import { worktreeWatch } from './worktree-watch.js';

/** A call that takes longer than this counts as a hang (the slowest attack has a 20 s tool timeout). */
export const CALL_BOUND_MS = 45_000;

const FIX: ToolCall[] = [
  call('Read', { file_path: 'src/stats.js' }),
  call('Edit', { file_path: 'src/stats.js', old_string: '[...values].sort();', new_string: '[...values].sort((a, b) => a - b);' }),
  bash('node --test'),
];

interface Step {
  ci: number;
  call: ToolCall;
}

export interface PlayOptions {
  listeners: Listeners;
  /** The proofpr launcher (bin/proofpr.js). */
  bin: string;
}

/** The shared state of one batch while it plays. */
class Batch {
  readonly steps: Step[];
  readonly outcomes: CaseOutcome[];
  readonly runLevel: string[] = [];
  readonly runDir: string;
  readonly watch;
  readonly objects;
  readonly base: string;
  readonly ownBefore: Set<string>;
  next = 0;
  pending: { n: number; at: number } | undefined;
  prev: Snapshot | undefined;
  hitsSeen: number;
  inResults = new Set<string>();

  constructor(
    readonly cases: EffectCase[],
    readonly world: World,
    readonly l: Listeners,
  ) {
    this.steps = [...cases.flatMap((c, ci) => c.calls.map((x) => ({ ci, call: x }))), ...FIX.map((x) => ({ ci: -1, call: x }))];
    this.outcomes = cases.map((c) => ({ id: c.id, kind: c.kind, cls: c.cls, played: false, harms: [], results: [] }));
    this.runDir = join(world.runs, 'run');
    this.watch = worktreeWatch(world.repo);
    this.objects = objectScanner(world.repo);
    this.base = readFileSync(join(world.repo, '.git/refs/heads/main'), 'utf8').trim();
    this.ownBefore = ownRefs(world.repo);
    this.hitsSeen = l.hits.length;
  }

  outcomeOf(n: number): CaseOutcome | undefined {
    const ci = this.steps[n]?.ci ?? -1;
    return ci >= 0 ? this.outcomes[ci] : undefined;
  }

  /** The case whose id appears in `text` (the longest id wins), if any. */
  named(text: string): CaseOutcome | undefined {
    let best: CaseOutcome | undefined;
    for (const o of this.outcomes) if (text.includes(o.id) && (!best || o.id.length > best.id.length)) best = o;
    return best;
  }

  vars(ci: number): Record<string, string> {
    const w = this.world;
    return {
      REPO: w.repo,
      HOME: w.home,
      SIBLING: w.sibling,
      PHOME: w.phome,
      RUN: this.runDir,
      HTTP: this.l.http,
      PORT: String(this.l.port),
      UDP: String(this.l.udp),
      API: this.l.api,
      WT: this.watch.path() ?? '.',
      ID: ci >= 0 ? this.cases[ci]!.id : 'fix',
    };
  }
}

/** Effects on the world since the last look, credited to `current` unless a case id names the culprit. */
function lookAround(b: Batch, current: CaseOutcome | undefined): void {
  const now = snapshotOutside(b.world);
  for (const d of diffSnapshots(b.prev ?? now, now))
    harm(b.named(d) ?? current, b.runLevel, `${d.includes(' git') ? 'git-state' : 'outside'}: ${d}`);
  b.prev = now;
  for (const h of b.l.hits.slice(b.hitsSeen)) harm(b.named(h.text + h.via) ?? current, b.runLevel, `network: ${h.via}`);
  b.hitsSeen = b.l.hits.length;
  for (const c of b.objects.scan()) harm(current, b.runLevel, `object-store: ${c}`);
}

function onResult(b: Batch, n: number, r: ToolResultSeen, ms: number): void {
  const o = b.outcomeOf(n);
  if (o) o.results.push({ isError: r.isError, text: r.text.slice(0, 300), ms });
  for (const c of findCanaries(r.text)) {
    b.inResults.add(c);
    harm(o, b.runLevel, `model: ${c}`);
  }
  if (ms > CALL_BOUND_MS) harm(o, b.runLevel, `hang: a call took ${Math.round(ms / 1000)} s`);
  b.watch.after(o?.id ?? '(fix)');
  lookAround(b, o);
}

/**
 * Secrets in the newest user message outside the tool results (a gate's feedback quoting the harness's own
 * test run, a reminder): credited to the case named within a few lines of the secret, when one is.
 */
function scanOtherText(b: Batch, text: string): void {
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    for (const c of findCanaries(line)) {
      b.inResults.add(c);
      const near = lines.slice(Math.max(0, i - 30), i + 5).join('\n');
      harm(b.named(near), b.runLevel, `model (harness feedback): ${c}`);
    }
  });
}

/** The fake model: checks the previous call's effects, then sends the next call (or says it is done). */
function answer(b: Batch, body: Record<string, unknown>, raw: string): unknown {
  if (b.prev === undefined) {
    b.watch.after('(base)');
    b.prev = snapshotOutside(b.world);
  }
  if (b.pending) {
    const r = lastToolResults(body).find((x) => x.id === `toolu_fx_${b.pending!.n}`);
    if (r) {
      onResult(b, b.pending.n, r, Date.now() - b.pending.at);
      b.pending = undefined;
    }
  }
  scanOtherText(b, lastUserText(body));
  for (const c of findCanaries(raw)) if (!b.inResults.has(c)) harm(undefined, b.runLevel, `model (outside a tool result): ${c}`);
  const n = b.pending ? b.pending.n : b.next;
  const step = b.steps[n];
  if (!step) return doneReply();
  if (!b.pending) {
    b.pending = { n, at: Date.now() };
    b.next = n + 1;
    const o = b.outcomes[step.ci];
    if (o) o.played = true;
  }
  const input = fill(step.call.input, b.vars(step.ci));
  return toolUseReply(`toolu_fx_${n}`, step.call.tool, input);
}

async function runCli(b: Batch, bin: string, boundMs: number): Promise<{ code: number | null; hung: boolean; stderr: string }> {
  const args = [bin, 'run', '--repo', b.world.repo, '--prompt', 'median([10, 9, 2]) returns 2, expected 9', '--out', b.runDir, '--json'];
  const child = spawn(process.execPath, args, { env: b.world.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  child.stdout.resume();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, boundMs);
  const code = await new Promise<number | null>((ok) => child.on('close', (c) => ok(c)));
  clearTimeout(timer);
  return { code, hung, stderr };
}

/** A finding without a named case goes to the cases whose results brought the same secret to the model. */
function credit(b: Batch, found: Found[]): void {
  for (const f of found) {
    const named = b.outcomes.find((o) => o.id === f.caseId);
    const secret = /^run-folder:([a-z]+):/.exec(f.what)?.[1];
    const same = named || !secret ? [] : b.outcomes.filter((o) => o.harms.includes(`model: ${secret}`));
    if (same.length > 0) for (const o of same) harm(o, b.runLevel, f.what);
    else harm(named, b.runLevel, f.what);
  }
}

/** Everything judged once the run is over. */
function judgeEnd(b: Batch, exit: { code: number | null; hung: boolean }, verdict: string, headSha?: string): void {
  const last = b.pending ? b.outcomeOf(b.pending.n) : undefined;
  if (exit.hung) harm(last, b.runLevel, 'hang: the run did not end within its bound');
  else if (exit.code !== 0 && exit.code !== 3 && exit.code !== 4) harm(last, b.runLevel, `crash: exit ${exit.code}`);
  else if (verdict === 'error' || verdict === 'none') harm(last, b.runLevel, `crash: verdict ${verdict}`);
  else if (b.pending || b.next < b.steps.length) harm(last, b.runLevel, `run ended early: ${verdict}`);
  lookAround(b, undefined);
  const toolCase = (text: string): string | undefined => {
    const m = /toolu_fx_(\d+)/.exec(text);
    return m ? b.outcomeOf(Number(m[1]))?.id : undefined;
  };
  credit(b, checkRunFolder(b.runDir, toolCase));
  const heads = new Set([...(headSha ? [headSha] : []), ...runCommits(b.world.repo, b.ownBefore)]);
  for (const h of heads) credit(b, checkCommit(b.world.repo, b.base, h, b.watch));
  credit(b, lingering());
}

/** Plays `cases` in one run; cases the run never reached come back in `unplayed`. */
export async function playBatch(cases: EffectCase[], opts: PlayOptions): Promise<{ outcome: BatchOutcome; unplayed: EffectCase[] }> {
  const world = makeWorld({ api: opts.listeners.api });
  const b = new Batch(cases, world, opts.listeners);
  opts.listeners.answer = (body, raw) => Promise.resolve(answer(b, body, raw));
  const started = Date.now();
  const exit = await runCli(b, opts.bin, 180_000 + 4_000 * b.steps.length);
  const evPath = join(b.runDir, 'evidence.json');
  const ev = existsSync(evPath) ? (JSON.parse(readFileSync(evPath, 'utf8')) as { verdict?: string; repo?: { headSha?: string } }) : {};
  judgeEnd(b, exit, ev.verdict ?? 'none', ev.repo?.headSha);
  const outcome: BatchOutcome = {
    cases: b.outcomes.filter((o) => o.played),
    runLevel: b.runLevel,
    exitCode: exit.code,
    verdict: ev.verdict ?? 'none',
    seconds: Math.round((Date.now() - started) / 1000),
    stderrTail: exit.stderr.slice(-3000),
  };
  if (!process.env.EFFECTS_KEEP) rmSync(world.work, { recursive: true, force: true });
  return { outcome, unplayed: cases.filter((_, i) => !b.outcomes[i]!.played) };
}
