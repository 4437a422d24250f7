/**
 * One qualified case through the real harness: the upstream change replayed with no model (the replay
 * server), then the test change alone; with --model, the agent on the parent from the fix's message,
 * judged afterwards by the held-out upstream test change (never in the agent's clone or prompt).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixBlocker, testOnlyBlocker } from './blocker.js';
import { checkoutAt, shell, type Checkout } from './checkout.js';
import { fileChanges, writeChanges } from './file-changes.js';
import { finalRunTail } from './final-run-tail.js';
import { isSecretName } from '../workspace/env-scrub.js';
import { git } from './git.js';
import type { Candidate } from './pick-candidates.js';
import { replayReply, replaySteps, replayTurnBudget, type FileChange } from './replay.js';
import { startReplayServer } from './replay-server.js';
import { runPass, type PassResult } from './run-pass.js';
import type { AgentRun, Blocker, CaseRun } from './types.js';

export interface CaseContext {
  /** The CLI's launcher (bin/proofpr.js). */
  bin: string;
  /** The tool's cache repository (holds every commit of the walk). */
  bare: string;
  /** Scratch folder for the clones of each pass. */
  work: string;
  /** Where each pass's run folder goes. */
  runsDir: string;
  /** PROOFPR_HOME of the passes (their worktrees and dependency cache). */
  home: string;
  /** The caller's environment: only --model passes see it (the model's credentials). */
  env: NodeJS.ProcessEnv;
  /** --model: the model id, or true for the configured one. */
  model?: string | true;
  /** --config: the proofpr.yml every pass runs with (`proofpr run --config`), instead of the parent's own. */
  config?: string;
  /** The case's config `env` names: taken from the caller's environment into each replay pass (never a secret). */
  envNames?: readonly string[];
  progress: (line: string) => void;
}

const short = (sha: string): string => sha.slice(0, 7);

function cloneBase(ctx: CaseContext, bundle: string, name: string): string {
  const dir = join(ctx.work, name);
  rmSync(dir, { recursive: true, force: true });
  git(ctx.work, ['clone', '-q', '--branch', 'main', bundle, dir]);
  return dir;
}

function toCaseRun(p: PassResult, runDir: string): CaseRun {
  return {
    verdict: p.verdict,
    reason: p.reason,
    counts: p.total !== undefined ? { passed: p.passed ?? 0, total: p.total } : null,
    failedGates: p.failedGates,
    wallMs: Math.round(p.wallMs),
    testMs: Math.round(p.testMs),
    runDir,
  };
}

/** A blocker whose final run failed uncounted: the last line that run printed, after the reason. */
function withTail(b: Blocker | undefined, run: CaseRun): Blocker | undefined {
  if (!b || run.counts !== null) return b;
  const tail = finalRunTail(run.runDir);
  return tail ? { ...b, what: `${b.what}; the final run's last line: ${tail}` } : b;
}

/** The config's `env` names with their values in the caller's environment (a CA bundle, a proxy); no secret name. */
function configEnv(ctx: CaseContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ctx.envNames ?? []) {
    const v = ctx.env[name];
    if (typeof v === 'string' && !isSecretName(name)) out[name] = v;
  }
  return out;
}

/** A replay pass: `changes` applied through the tools by the replay model, then the test command. */
async function replayPass(ctx: CaseContext, c: Candidate, bundle: string, changes: FileChange[], testCommand: string, label: string) {
  const repo = cloneBase(ctx, bundle, `${short(c.commit)}-${label}`);
  const steps = replaySteps(changes, testCommand);
  const server = await startReplayServer((n) => replayReply(steps, n, `Applied the change for: ${c.subject}`));
  const runDir = join(ctx.runsDir, `${short(c.commit)}-${label}`);
  const env = {
    PATH: ctx.env.PATH,
    HOME: ctx.env.HOME,
    LANG: ctx.env.LANG,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-replay-0000000000',
    PROOFPR_HOME: ctx.home,
    ...configEnv(ctx),
  };
  try {
    const extraArgs = ['--max-turns', String(replayTurnBudget(steps))];
    const config = ctx.config ? { config: ctx.config } : {};
    return toCaseRun(await runPass({ bin: ctx.bin, repo, prompt: c.subject, runDir, env, extraArgs, ...config }), runDir);
  } finally {
    await server.close();
    rmSync(repo, { recursive: true, force: true });
  }
}

export async function replayCase(ctx: CaseContext, c: Candidate, bundle: string, testCommand: string) {
  const source = fileChanges(ctx.bare, c.parent, c.commit, c.code);
  const tests = fileChanges(ctx.bare, c.parent, c.commit, c.tests);
  ctx.progress(`  ${short(c.commit)} fix pass (upstream change replayed)…`);
  const fix = await replayPass(ctx, c, bundle, [...source, ...tests], testCommand, 'fix');
  const fb = withTail(fixBlocker(fix.verdict, fix.reason, fix.failedGates), fix);
  ctx.progress(`  ${short(c.commit)} test-only pass…`);
  const testOnly = await replayPass(ctx, c, bundle, tests, testCommand, 'test-only');
  const tb = testOnlyBlocker(testOnly.verdict, testOnly.reason);
  return { fix: { ...fix, ...(fb ? { blocked: fb } : {}) }, testOnly: { ...testOnly, ...(tb ? { blocked: tb } : {}) } };
}

/** The held-out judgement: the agent's final tree with the upstream test files, the test command in the checkout. */
function judge(co: Checkout, agentRepo: string, head: string, c: Candidate, testCommand: string): boolean {
  git(co.dir, ['fetch', '-q', agentRepo, '+refs/*:refs/backtest-agent/*']);
  checkoutAt(co, head);
  writeChanges(co.dir, fileChanges(co.dir, c.parent, c.commit, c.tests));
  return shell(co, testCommand).code === 0;
}

/** The agent on the parent from the fix's message (as the issue text), judged by the held-out test change. */
export async function agentCase(ctx: CaseContext, co: Checkout, c: Candidate, bundle: string, testCommand: string): Promise<AgentRun> {
  ctx.progress(`  ${short(c.commit)} agent pass (--model)…`);
  const repo = cloneBase(ctx, bundle, `${short(c.commit)}-agent`);
  const runDir = join(ctx.runsDir, `${short(c.commit)}-agent`);
  mkdirSync(ctx.runsDir, { recursive: true });
  const extraArgs = typeof ctx.model === 'string' ? ['--model', ctx.model] : [];
  try {
    const env = { ...ctx.env, PROOFPR_HOME: ctx.home };
    const config = ctx.config ? { config: ctx.config } : {};
    const p = await runPass({ bin: ctx.bin, repo, prompt: c.message, runDir, env, extraArgs, ...config });
    const head = p.headSha ?? git(repo, ['rev-parse', 'HEAD']).trim();
    const resolved = judge(co, repo, head, c, testCommand);
    const run = toCaseRun(p, runDir);
    const b = withTail(fixBlocker(run.verdict, run.reason, run.failedGates), run);
    return { ...run, ...(b ? { blocked: b } : {}), resolved, agreed: (run.verdict === 'verified') === resolved, costUsd: p.costUsd };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
