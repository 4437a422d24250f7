/**
 * The selection rule's test (docs/backtest.md), without proofpr: in the backtest's checkout, the parent
 * with only the upstream test change must fail the test command, and the fix commit must pass it. The
 * fix's run also gives the runner's own count (its summary lines), the figure proofpr's count is held to.
 */
import { parseTestOutput } from '../agent/verification/test-results/parse-test-output.js';
import { checkoutAt, commandsAt, ensureSetup, shell, type Checkout } from './checkout.js';
import { fileChanges, writeChanges } from './file-changes.js';
import type { Candidate } from './pick-candidates.js';

export type Qualified = { ok: true; testCommand: string; runnerCount: number | null } | { ok: false; why: string };

/** A line that names a cause (a missing module or command, an error), ahead of a runner's closing summary. */
const CAUSE =
  /\b(?:Cannot find (?:module|package)|ModuleNotFoundError|No module named|ImportError|SyntaxError|command not found|ERR_[A-Z_]+|\w*Error:)/;

/** What a failing command's output says: the first line naming a cause, else the last non-empty line; shortened. */
export function outcomeLine(out: string): string {
  const lines = out
    .split('\n')
    .map((l) => l.replace(/^[#\s]+/, '').trim())
    .filter(Boolean);
  const line = lines.find((l) => CAUSE.test(l)) ?? lines.at(-1) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || 'no output';
}

export async function qualifyCase(co: Checkout, c: Candidate): Promise<Qualified> {
  checkoutAt(co, c.parent);
  const cmds = await commandsAt(co);
  if (!cmds.test) return { ok: false, why: cmds.missing ?? 'no test command at the parent' };
  try {
    ensureSetup(co, cmds.setup);
  } catch (e) {
    return { ok: false, why: (e as Error).message };
  }
  writeChanges(co.dir, fileChanges(co.dir, c.parent, c.commit, c.tests));
  const red = shell(co, cmds.test);
  // 126/127: the shell could not run a command (not installed, not executable): no test failed.
  if (red.code === 126 || red.code === 127)
    return {
      ok: false,
      why: `\`${cmds.test}\` could not start on the parent (exit ${red.code}: a command is missing; setup.command installs it)`,
    };
  if (red.code === 0)
    return { ok: false, why: `its test change passes on the parent (\`${cmds.test}\` exit 0): no failing test to judge a fix by` };
  checkoutAt(co, c.commit);
  const green = shell(co, cmds.test);
  if (green.code !== 0)
    return { ok: false, why: `\`${cmds.test}\` fails at the fix itself on this machine (exit ${green.code}: ${outcomeLine(green.out)})` };
  return { ok: true, testCommand: cmds.test, runnerCount: parseTestOutput(green.out)?.counts.total ?? null };
}
