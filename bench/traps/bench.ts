/**
 * The trap benchmark (see bench/traps/README.md): every case of the trap corpus
 * (test/e2e/trap-corpus) played through the product, `runTask` with a scripted model that makes the
 * case's edits through Write / Edit (and `rm` through Bash), runs the test command through Bash, and then
 * says done. Per case: the verdict, the reason, the failed gates, refused tool calls, and for a verified
 * trap whether the bug is still on the branch (the base's failing tests, run on the committed source with
 * the base's test harness, still fail). Prints a table and writes bench/results/traps.json (key `firstTry`
 * or the key given with --key). Cases run one after another.
 * Usage: bench.mjs ROOT [--key NAME] [--fresh | --round3] [case-id-prefix ...] (--fresh: only the cases written after the
 * mechanism; --round3: only issue 38's cases, written before its mechanisms)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunEvent } from '../../src/agent/events.js';
import { createScriptedModel } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import {
  cases,
  freshCases,
  round3Cases,
  configFor,
  withSourceOf,
  materialize,
  runCommand,
  scriptFor,
  writeFiles,
  git,
  type CorpusCase,
  type Files,
} from '../../test/e2e/trap-corpus/index.js';

const root = process.argv[2] ?? process.cwd();
const args = process.argv.slice(3);
const keyAt = args.indexOf('--key');
const key = keyAt >= 0 ? (args[keyAt + 1] ?? 'firstTry') : 'firstTry';
const fresh = args.includes('--fresh');
const round3 = args.includes('--round3');
const only = args.filter((a, i) => i !== keyAt && i !== keyAt + 1 && a !== '--fresh' && a !== '--round3');
const keep = process.env.BENCH_KEEP === '1';

/**
 * The interpreter the product's sandbox can run: the home folder is hidden there, so a python3 that is a
 * shim under it (pyenv) fails. TRAPS_PYTHON overrides; else the system python3 when it has pytest.
 */
function python(): string {
  if (process.env.TRAPS_PYTHON) return process.env.TRAPS_PYTHON;
  const sys = '/usr/bin/python3';
  return existsSync(sys) && spawnSync(sys, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0 ? sys : 'python3';
}
const PY = python();
/** Every `python3` word of a Python case's command or shell step: the interpreter the sandbox sees. */
const commandOf = (c: CorpusCase, command: string): string => (c.lang === 'py' ? command.replace(/(^|\s)python3\b/g, `$1${PY}`) : command);

export interface Row {
  id: string;
  kind: CorpusCase['kind'];
  lang: CorpusCase['lang'];
  runner: CorpusCase['runner'];
  cls: string;
  verdict: string;
  reason: string;
  failedGates: string[];
  /** Each failed gate's detail, cut to 400 characters (what the gate saw). */
  failedGateDetails?: string[];
  /** Tool calls the product refused or that failed (the edit did not land as scripted). */
  refused: string[];
  /** A verified trap: the base's failing tests on the committed source with the base harness still fail. */
  bugOnBranch?: boolean;
  wallMs: number;
  error?: string;
}

/** The committed tree of `ref` as files. */
function treeFiles(repo: string, ref: string): Files {
  const out: Files = {};
  for (const p of git(repo, ['ls-tree', '-r', '--name-only', ref]).split('\n').filter(Boolean)) {
    out[p] = execFileSync('git', ['show', `${ref}:${p}`], { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }
  return out;
}

/** The hidden check on the pushed commit: the base harness with the commit's source; true when the base's failing tests still fail. */
function bugStillIn(c: CorpusCase, repo: string, ref: string, work: string): boolean {
  const files: Files = withSourceOf(c, c.base, treeFiles(repo, ref));
  const dir = join(work, 'hidden');
  mkdirSync(dir);
  writeFiles(dir, files);
  if (c.lang === 'js') execFileSync('ln', ['-s', join(root, 'node_modules'), join(dir, 'node_modules')]);
  return runCommand(dir, commandOf(c, c.hiddenCommand ?? c.command), work).code !== 0;
}

async function playCase(c: CorpusCase): Promise<Row> {
  const m = materialize(c, 'base', { root });
  const command = commandOf(c, c.command);
  const shell = (s: string): string => commandOf(c, s);
  const events: RunEvent[] = [];
  const t = performance.now();
  const base = { id: c.id, kind: c.kind, lang: c.lang, runner: c.runner, cls: c.cls };
  try {
    const res = await runTask({
      repoDir: m.dir,
      branch: `proofpr/1-${c.id}`.slice(0, 60),
      task: { kind: 'issue', issue: 1, title: c.issue.title, body: c.issue.body },
      config: configFor(c, command, '', shell),
      model: createScriptedModel(scriptFor(c, command, shell)),
      modelId: 'claude-sonnet-5-5',
      mode: 'fix',
      runId: `trap-${c.id}-${Date.now()}`,
      runDir: join(m.work, 'run'),
      worktreesDir: join(m.work, 'worktrees'),
      onEvent: (e) => events.push(e),
    });
    const ev = res.evidence;
    const refused = events.flatMap((e) =>
      e.type === 'tool_result' && e.isError && e.name !== 'Bash' ? [`${e.name}: ${e.preview.split('\n')[0]?.slice(0, 160) ?? ''}`] : [],
    );
    const row: Row = {
      ...base,
      verdict: ev.verdict,
      reason: ev.reason,
      failedGates: ev.gates.filter((g) => !g.passed).map((g) => g.name),
      failedGateDetails: ev.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail.slice(0, 400)}`),
      refused,
      wallMs: Math.round(performance.now() - t),
    };
    if (c.kind === 'trap' && ev.verdict === 'verified' && res.headSha) row.bugOnBranch = bugStillIn(c, m.dir, res.headSha, m.work);
    return row;
  } catch (e) {
    return {
      ...base,
      verdict: 'error',
      reason: '',
      failedGates: [],
      refused: [],
      wallMs: Math.round(performance.now() - t),
      error: String(e),
    };
  } finally {
    if (!keep) rmSync(m.work, { recursive: true, force: true });
    else process.stderr.write(`kept ${m.work}\n`);
  }
}

const pad = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

function print(rows: Row[]): void {
  console.log(`${pad('case', 38)} ${pad('kind', 7)} ${pad('verdict', 11)} reason`);
  for (const r of rows) {
    const gates = r.failedGates.length > 0 ? ` [failed: ${r.failedGates.join(', ')}]` : '';
    const bug = r.bugOnBranch === true ? ' [BUG ON BRANCH]' : '';
    const refused = r.refused.length > 0 ? ` [refused: ${r.refused.join(' | ')}]` : '';
    console.log(`${pad(r.id, 38)} ${pad(r.kind, 7)} ${pad(r.verdict, 11)} ${r.error ?? r.reason}${gates}${bug}${refused}`);
  }
}

function totals(rows: Row[]): Record<string, unknown> {
  const traps = rows.filter((r) => r.kind === 'trap');
  const controls = rows.filter((r) => r.kind === 'control');
  const byLang: Record<string, string> = {};
  for (const lang of ['js', 'py', 'go', 'rs']) {
    const t = traps.filter((r) => r.lang === lang);
    byLang[lang] = `${t.filter((r) => r.verdict === 'verified').length}/${t.length}`;
  }
  return {
    trapsVerified: `${traps.filter((r) => r.verdict === 'verified').length}/${traps.length}`,
    trapsVerifiedWithBugOnBranch: `${traps.filter((r) => r.bugOnBranch === true).length}/${traps.length}`,
    trapsVerifiedByLang: byLang,
    controlsVerified: `${controls.filter((r) => r.verdict === 'verified').length}/${controls.length}`,
    errors: rows.filter((r) => r.verdict === 'error').length,
  };
}

const resultsPath = join(root, 'bench', 'results', 'traps.json');
const commit = git(root, ['rev-parse', 'HEAD']).trim();
const dirty = git(root, ['status', '--porcelain', '--', 'src']).trim() !== '';
const readResults = (): Record<string, unknown> =>
  existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, unknown>) : {};
/** Written after every case, so an interrupted run keeps what it measured (`complete: false`). */
function save(rows: Row[], complete: boolean): void {
  const entry = {
    commit,
    srcDirty: dirty,
    date: new Date().toISOString(),
    cases: fresh ? 'fresh' : round3 ? (only.length > 0 ? ['round3', ...only] : 'round3') : only.length > 0 ? only : 'all',
    complete,
    summary: totals(rows),
    rows,
  };
  writeFileSync(resultsPath, `${JSON.stringify({ ...readResults(), [key]: entry }, null, 2)}\n`);
}

const selected = (fresh ? freshCases : round3 ? round3Cases : cases).filter(
  (c) => only.length === 0 || only.some((o) => c.id.startsWith(o)),
);
// --resume: keep the rows already recorded under this key for the same product commit.
const prior = ((readResults()[key] as { commit?: string; rows?: Row[] } | undefined) ?? {}) as { commit?: string; rows?: Row[] };
const rows: Row[] = process.env.BENCH_RESUME === '1' && prior.commit === commit ? (prior.rows ?? []) : [];
for (const c of selected) {
  if (rows.some((r) => r.id === c.id)) continue;
  const r = await playCase(c);
  rows.push(r);
  save(rows, false);
  process.stderr.write(`${c.id}: ${r.verdict} (${Math.round(r.wallMs / 1000)} s)\n`);
}
print(rows);
console.log(JSON.stringify(totals(rows), null, 2));
save(rows, true);
console.log(`wrote ${resultsPath} (${key})`);
