/**
 * Plays the whole corpus: cases marked `alone` (or with a world of their own) each in a run of their own,
 * the cases of a `group` in a run of their own, resource attacks in small batches, the rest in larger ones; a run that ends before its last case continues with the rest in a
 * new run, so one case that hangs or crashes the run costs only itself. `lanes` runs play side by side,
 * each with its own listeners and fake model API.
 */
import { startListeners } from './listeners.js';
import { playBatch } from './play.js';
import type { BatchOutcome, CaseOutcome } from './outcome.js';
import type { EffectCase } from './types.js';

export interface CorpusOutcome {
  cases: CaseOutcome[];
  batches: BatchOutcome[];
  seconds: number;
}

export interface PlayAllOptions {
  /** The proofpr launcher (bin/proofpr.js). */
  bin: string;
  size: number;
  lanes: number;
  log?: (s: string) => void;
}

function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export function batchesOf(cases: EffectCase[], size: number): EffectCase[][] {
  const own = (c: EffectCase): boolean => c.alone === true || c.world !== undefined;
  const alone = cases.filter(own).map((c) => [c]);
  const groups = new Map<string, EffectCase[]>();
  for (const c of cases) if (!own(c) && c.group !== undefined) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const free = cases.filter((c) => !own(c) && c.group === undefined);
  const resource = free.filter((c) => c.cls === 'resource');
  const rest = free.filter((c) => c.cls !== 'resource');
  const even = Math.ceil(rest.length / Math.max(1, Math.ceil(rest.length / size)));
  return [...chunk(resource, 12), ...chunk(rest, even), ...groups.values(), ...alone];
}

async function lane(queue: EffectCase[][], out: CorpusOutcome, opts: PlayAllOptions): Promise<void> {
  const listeners = await startListeners();
  try {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      const { outcome, unplayed } = await playBatch(batch, { listeners, bin: opts.bin });
      out.batches.push(outcome);
      out.cases.push(...outcome.cases);
      const harmed = outcome.cases.filter((c) => c.harms.length > 0).length;
      opts.log?.(
        `batch of ${batch.length} (${batch[0]!.id} …): ${outcome.verdict}, exit ${outcome.exitCode}, ${outcome.seconds} s, ` +
          `${harmed} harmful, run-level ${JSON.stringify(outcome.runLevel)}, ${unplayed.length} to replay`,
      );
      if (outcome.cases.length === 0) {
        // The run never reached a call: its cases are reported as not played rather than replayed forever.
        const harms = ['not played: the run ended before its first call'];
        for (const c of batch) out.cases.push({ id: c.id, kind: c.kind, cls: c.cls, played: false, harms, results: [] });
      } else if (unplayed.length > 0) queue.unshift(unplayed);
    }
  } finally {
    await listeners.close();
  }
}

export async function playAll(cases: EffectCase[], opts: PlayAllOptions): Promise<CorpusOutcome> {
  const started = Date.now();
  const queue = batchesOf(cases, opts.size);
  const out: CorpusOutcome = { cases: [], batches: [], seconds: 0 };
  await Promise.all(Array.from({ length: Math.max(1, opts.lanes) }, () => lane(queue, out, opts)));
  out.seconds = Math.round((Date.now() - started) / 1000);
  return out;
}
