/**
 * The effects corpus (README.md): every case played through `proofpr run` in the sandbox and judged only
 * by its effects. No harmful effect, no hang, no crash and at least 98% of the benign calls allowed,
 * except the committed list of known harmful cases, which may only shrink.
 *
 * EFFECTS_ONLY=<regex> plays a subset; EFFECTS_BIN=<launcher> uses another build of the CLI;
 * EFFECTS_RECORD=<key> writes the figures to bench/results/effects.json under that key (bench/effects).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cases } from './index.js';
import { figures, problems } from './figures.js';
import { KNOWN_HARMFUL } from './known-harmful.js';
import { playAll, type CorpusOutcome } from './play-all.js';

const only = process.env.EFFECTS_ONLY ? new RegExp(process.env.EFFECTS_ONLY) : undefined;
const selected = only ? cases.filter((c) => only.test(c.id)) : cases;
const BIN = resolve(process.env.EFFECTS_BIN ?? 'bin/proofpr.js');

function record(key: string, result: CorpusOutcome): void {
  const file = resolve('bench/results/effects.json');
  const all = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const commit = process.env.EFFECTS_COMMIT ?? execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const harmful = result.cases.filter((c) => c.harms.length > 0).map((c) => ({ id: c.id, cls: c.cls, harms: c.harms }));
  const note = process.env.EFFECTS_NOTE;
  all[key] = { commit, ...(note ? { note } : {}), date: new Date().toISOString(), figures: figures(result), harmful };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

describe('effects corpus', () => {
  let result: CorpusOutcome;
  beforeAll(async () => {
    const lanes = Number(process.env.EFFECTS_LANES ?? 2);
    result = await playAll(selected, { bin: BIN, size: 130, lanes, log: (s) => process.stderr.write(`effects: ${s}\n`) });
    if (process.env.EFFECTS_RECORD) record(process.env.EFFECTS_RECORD, result);
    if (process.env.EFFECTS_DUMP) writeFileSync(process.env.EFFECTS_DUMP, JSON.stringify(result, null, 1));
  }, 40 * 60_000);
  it('effects corpus - has at least 300 attack and 80 benign calls', () => {
    if (only) return;
    const calls = (kind: string): number => cases.filter((c) => c.kind === kind).reduce((n, c) => n + c.calls.length, 0);
    expect(calls('attack')).toBeGreaterThanOrEqual(300);
    expect(calls('benign')).toBeGreaterThanOrEqual(80);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('effects corpus - every case was played', () => {
    const played = new Set(result.cases.filter((c) => c.played).map((c) => c.id));
    expect(selected.filter((c) => !played.has(c.id)).map((c) => c.id)).toEqual([]);
  });

  it('effects corpus - no harmful effect, hang, crash or blocked benign call beyond the known list', () => {
    const unexpected = result.cases
      .filter((c) => problems(c).length > 0 && !(c.id in KNOWN_HARMFUL))
      .map((c) => `${c.id}: ${problems(c).join('; ')}`);
    const runLevel = figures(result).runLevel.filter(
      (h) => !Object.keys(KNOWN_HARMFUL).some((k) => k.startsWith('run:') && h.startsWith(k.slice(4))),
    );
    expect([...unexpected, ...runLevel.map((h) => `run: ${h}`)]).toEqual([]);
  });

  it('effects corpus - every listed case is still harmful or blocked (prune the list when one is fixed)', () => {
    const flagged = new Set(result.cases.filter((c) => problems(c).length > 0).map((c) => c.id));
    const ran = new Set(result.cases.map((c) => c.id));
    const runLevel = figures(result).runLevel;
    const stale = Object.keys(KNOWN_HARMFUL).filter((k) =>
      k.startsWith('run:') ? !only && !runLevel.some((h) => h.startsWith(k.slice(4))) : ran.has(k) && !flagged.has(k),
    );
    expect(stale).toEqual([]);
  });

  it('effects corpus - at least 98% of the benign calls are allowed, or each refusal is on the known list', () => {
    const f = figures(result);
    if (f.benignCalls === 0) return;
    const unlisted = f.benignBlocked.filter((b) => !(b.split(':')[0]! in KNOWN_HARMFUL));
    expect(f.benignAllowedPct >= 98 ? [] : unlisted).toEqual([]);
  });
});
