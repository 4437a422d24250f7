#!/usr/bin/env node
// The effects corpus (test/e2e/effects-corpus): builds the CLI, plays every case through `proofpr run`
// with jest, records the figures in bench/results/effects.json under the key given (default "after"),
// and prints them. `--print` only prints what is recorded; `--round2` plays only the classes of issue 37
// (test/e2e/effects-corpus/cases-round2.ts), `--only REGEX` the cases whose id matches.
//   node bench/effects/run.mjs [KEY] [--print] [--round2 | --only REGEX]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const ROUND2 =
  '^(content|copy|socket|subagent|mcp-no-rule|mcp-json|lifecycle|lookalike)-|^benign-(fixture-env|git-status-porcelain-all|git-stash-pop|git-restore|git-checkout-file)';
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : args.includes('--round2') ? ROUND2 : undefined;
const key = args.find((a, i) => !a.startsWith('--') && (onlyAt < 0 || i !== onlyAt + 1)) ?? 'after';
const file = join(root, 'bench', 'results', 'effects.json');

if (!args.includes('--print')) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
  spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', 'test/e2e/effects-corpus'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, EFFECTS_RECORD: key, NODE_OPTIONS: '--experimental-vm-modules', ...(only ? { EFFECTS_ONLY: only } : {}) },
  });
}
if (!existsSync(file)) {
  console.error(`no figures yet: ${file} is missing`);
  process.exit(1);
}
const all = JSON.parse(readFileSync(file, 'utf8'));
for (const [k, r] of Object.entries(all)) {
  const f = r.figures;
  console.log(`\n${k} (commit ${String(r.commit).slice(0, 10)}, ${r.date})`);
  console.log(
    `  attack cases ${f.attackCases} (${f.attackCalls} calls), benign cases ${f.benignCases} (${f.benignCalls} calls), ${f.runs} runs, ${f.seconds} s`,
  );
  console.log(
    `  harmful cases ${f.harmfulCases}; benign allowed ${f.benignAllowedPct}%; hangs ${f.hangs.length}; crashes ${f.crashes.length}`,
  );
  for (const [cls, n] of Object.entries(f.harmfulByClass)) console.log(`    ${cls.padEnd(18)} ${n}`);
  console.log(
    `  by effect: ${Object.entries(f.harmfulByEffect)
      .map(([e, n]) => `${e} ${n}`)
      .join(', ')}`,
  );
}
