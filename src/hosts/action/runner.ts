/**
 * The Action step: read inputs (zod) and the runner's variables, run main, set the outputs, append
 * summary.md to the job summary, and return the exit code (CONTRACT §3; bad input or config → 2).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { ActionInputError, parseActionInputs } from '../../config/action-inputs.js';
import { ConfigError } from '../../config/repo-config.js';
import { setBashWasmDir } from '../../agent/permissions/bash-parser.js';
import { setCodeWasmDir } from '../../agent/verification/integrity/parse.js';
import { SweepSelectionError } from '../../usecases/sweep.js';
import { redactSecrets } from '../../github/sanitize.js';
import { secretValues } from '../../secrets/index.js';
import { readActionContext } from './context.js';
import { runActionMain, type ActionDeps } from './main.js';
import { writeOutputs } from './outputs.js';
import { appendStepSummary } from './step-summary.js';

export interface RunnerIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const defaultIo: RunnerIo = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) };

/** A one-line workflow command value: no newlines (they would end the command). */
function oneLine(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The bundle ships the tree-sitter wasm files next to itself (dist/); from src/ they come from node_modules. */
function useBundledWasm(): void {
  const here = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(here, 'tree-sitter-bash.wasm'))) setBashWasmDir(here);
  if (existsSync(join(here, 'tree-sitter-javascript.wasm'))) setCodeWasmDir(here);
}

/** actions/checkout keeps the token in .git/config unless persist-credentials is false: say so. */
function warnPersistedToken(workspace: string, io: RunnerIo): void {
  try {
    const out = execFileSync('git', ['config', '--local', '--get-regexp', '^http\\..*extraheader$'], {
      cwd: workspace,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (out.trim())
      io.stdout(
        '::warning::actions/checkout left the token in .git/config; set `persist-credentials: false` on the checkout step so no test the agent runs can read it\n',
      );
  } catch {
    /* none configured */
  }
}

export async function runAction(env: NodeJS.ProcessEnv = process.env, deps: ActionDeps = {}, io: RunnerIo = defaultIo): Promise<number> {
  try {
    const inputs = parseActionInputs(env);
    const ctx = readActionContext(env);
    useBundledWasm();
    warnPersistedToken(ctx.workspace, io);
    const result = await runActionMain(ctx, inputs, { log: (l) => io.stdout(`${l}\n`), env, ...deps });
    writeOutputs(ctx.outputFile, result.outputs);
    appendStepSummary(ctx.summaryFile, result.summaryMd);
    io.stdout(`proofpr: ${result.message}\n`);
    if (result.outputs.evidence_path) io.stdout(`proofpr: evidence ${result.outputs.evidence_path}\n`);
    return result.exitCode;
  } catch (e) {
    if (e instanceof ActionInputError || e instanceof ConfigError || e instanceof SweepSelectionError) {
      io.stdout(`::error::${oneLine(e.message)}\n`);
      io.stderr(`proofpr: ${e.message}\n`);
      return 2;
    }
    const clean = (t: string) => redactSecrets(t, secretValues(env));
    const msg = clean((e as Error).stack ?? String(e));
    io.stdout(`::error::proofpr internal error: ${oneLine(clean((e as Error).message ?? String(e)))}\n`);
    io.stderr(`proofpr: internal error: ${msg}\n`);
    return 1;
  }
}
