// Decision time of the permission policy over the corpus (bundled and run by bench/policy/run.mjs).
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadBashParser } from '../../src/agent/permissions/bash-parser.js';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import { makePolicyRepo } from '../../test/permissions/fixture-repo.js';

interface Case { tool: string; input: Record<string, unknown> }

const repoRoot = process.argv[2] as string;
const corpus = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/policy/corpus.json'), 'utf8')) as {
  config: { allow: string[]; deny: string[]; testCommand: string };
  cases: Case[];
};
// The security corpus (test/security/corpus.json) too: every option table, wrapper and path check is exercised.
const security = JSON.parse(readFileSync(join(repoRoot, 'test/security/corpus.json'), 'utf8')) as { cases: Array<Case & { mode?: string; testCommand?: string }> };
corpus.cases.push(...security.cases.filter((c) => c.mode === undefined && c.testCommand === undefined));
const rounds = Number(process.env.ROUNDS ?? 20);

const t0 = process.hrtime.bigint();
await loadBashParser();
const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;

const repo = makePolicyRepo();
const policy = await createPolicy({ ...corpus.config, root: repo.root, mode: 'default' });
const cases = corpus.cases.map((c) => ({ ...c, input: JSON.parse(JSON.stringify(c.input).replaceAll('{root}', repo.root)) as unknown }));
for (const c of cases) await policy.check(c.tool, c.input); // warm-up
const all: number[] = [];
const bashOnly: number[] = [];
const cpu: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    const c0 = process.cpuUsage();
    const s = process.hrtime.bigint();
    await policy.check(c.tool, c.input);
    const ms = Number(process.hrtime.bigint() - s) / 1e6;
    const cu = process.cpuUsage(c0);
    cpu.push((cu.user + cu.system) / 1000);
    all.push(ms);
    if (c.tool === 'Bash') bashOnly.push(ms);
  }
}
rmSync(repo.outside, { recursive: true, force: true });

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] as number).toFixed(4));
};
const result = {
  bench: 'policy',
  date: new Date().toISOString(),
  node: process.version,
  commands: cases.length,
  bashCommands: cases.filter((c) => c.tool === 'Bash').length,
  rounds,
  parserLoadMs: Number(loadMs.toFixed(2)),
  allMs: { p50: q(all, 0.5), p99: q(all, 0.99), max: q(all, 1) },
  bashMs: { p50: q(bashOnly, 0.5), p99: q(bashOnly, 0.99), max: q(bashOnly, 1) },
  /** CPU time per decision (user + system): what the policy costs, without waiting for a busy CPU. */
  cpuMs: { p50: q(cpu, 0.5), p99: q(cpu, 0.99), max: q(cpu, 1) },
  loadAverage1m: Number((loadavg()[0] as number).toFixed(2)),
  cpus: (await import('node:os')).cpus().length,
  targetP99Ms: 2,
};
console.table({ 'wall, all tools': result.allMs, 'wall, Bash only': result.bashMs, 'cpu, all tools': result.cpuMs });
console.log(`parser load ${result.parserLoadMs} ms; ${result.commands} commands (${result.bashCommands} Bash) x ${rounds} rounds; load ${result.loadAverage1m} on ${result.cpus} cpus; p99 target < 2 ms: wall ${result.allMs.p99 < 2 ? 'met' : 'missed'}, cpu ${result.cpuMs.p99 < 2 ? 'met' : 'missed'}`);
mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(join(repoRoot, 'bench/results/policy.json'), `${JSON.stringify(result, null, 2)}\n`);
