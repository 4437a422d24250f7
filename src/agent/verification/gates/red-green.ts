import { cp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import type { TestCounts } from '../../events.js';
import { harnessTestRun } from '../test-runs/harness-run.js';
import { withPristineCheckout } from '../test-runs/pristine-checkout.js';
import { git } from '../../../workspace/git.js';
import { spliceTests } from '../shipped/rust-tests.js';
import { readFile, writeFile } from 'node:fs/promises';

export interface RedGreenResult {
  passed: boolean;
  detail: string;
  /** The added or changed test files that were put on the base tree. */
  testFiles: string[];
  /** True when the tests failed on the base tree plus only the test changes (red before the fix). */
  failedBefore: boolean;
  exitCode?: number | null;
  counts?: TestCounts | null;
}

/** The red run's tree on the base checkout `wt`: the test changes, or every change but the shipped code's. */
async function putChanges(wt: string, opts: Parameters<typeof redGreen>[0], testFiles: readonly string[]): Promise<void> {
  const copy = opts.apply ? opts.apply.copy : testFiles;
  for (const f of copy) {
    await mkdir(dirname(join(wt, f)), { recursive: true });
    await cp(join(opts.root, f), join(wt, f), { verbatimSymlinks: true });
  }
  for (const f of opts.apply ? opts.apply.remove : (opts.deletedTestFiles ?? [])) await rm(join(wt, f), { force: true, recursive: true });
  for (const f of opts.apply?.splice ?? []) {
    const base = (await git(['show', `${opts.baseSha}:${f}`], { cwd: wt })).stdout;
    await writeFile(join(wt, f), spliceTests(base, await readFile(join(opts.root, f), 'utf8')));
  }
}

/**
 * Red → green: a clean checkout of `baseSha` (dependency folders linked as for the final run), only
 * the changed test files copied over (deleted ones removed), `test.command` run there with the
 * runner's report asked for by the harness. Red when a test fails there that did not fail on the base
 * (`baseFailing`, by id), or — when the runner gives no ids — when the report counts a failure, or the
 * command fails in a way that names a changed test file (a suite that does not load without the fix).
 */
export async function redGreen(opts: {
  root: string;
  baseSha: string;
  config: Pick<RunSettings, 'test'>;
  exec: ExecPort;
  testFiles: readonly string[];
  deletedTestFiles?: readonly string[];
  /** Where the checkout goes; must be writable inside the sandbox (the exec's tmp). */
  scratchDir?: string;
  gitDir?: string;
  /** Ids failing on the base itself (the baseline): those failing again prove nothing. */
  baseFailing?: readonly string[];
  logger?: Logger;
  /**
   * The reversion run (attribution): every change but the shipped code's goes on the base — tests,
   * configs, data, fixtures, whatever their names (`copy` from the worktree, `remove`), and shipped
   * sources with inline tests get those tests (`splice`). Without it, only the test files are copied.
   */
  apply?: { copy: readonly string[]; remove: readonly string[]; splice: readonly string[] };
}): Promise<RedGreenResult> {
  const testFiles = [...opts.testFiles];
  const command = opts.config.test.command;
  if (command === undefined)
    return {
      passed: false,
      detail: '`test.command` is missing in .github/proofpr.yml (needed by gate red-green)',
      testFiles,
      failedBefore: false,
    };
  if (testFiles.length === 0)
    return {
      passed: true,
      detail: 'no test was added or changed: nothing to show failing before the change',
      testFiles,
      failedBefore: false,
    };
  const scratch = opts.scratchDir ?? tmpdir();
  try {
    const { run, output } = await withPristineCheckout(
      {
        root: opts.root,
        ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
        sha: opts.baseSha,
        scratchDir: scratch,
        ...(opts.logger ? { logger: opts.logger } : {}),
      },
      async (wt) => {
        await putChanges(wt, opts, testFiles);
        return harnessTestRun({
          cwd: wt,
          command,
          config: opts.config,
          exec: opts.exec,
          scratchDir: scratch,
          kind: 'red-green',
          treeHash: '',
          commit: opts.baseSha,
        });
      },
    );
    const c = run.counts;
    const before = new Set(opts.baseFailing ?? []);
    const newFailing = (run.tests ?? []).filter((t) => t.outcome === 'failed' && !before.has(t.id)).map((t) => t.id);
    const named = testFiles.some((f) => output.includes(f) || output.includes(basename(f)));
    const failedBefore = run.tests?.length
      ? newFailing.length > 0
      : (c?.failed ?? 0) > (opts.baseFailing?.length ?? 0) || (run.exitCode !== null && run.exitCode !== 0 && named);
    const seen = `exit ${run.exitCode ?? 'none (timed out)'}; ${c ? `${c.passed} passed, ${c.failed} failed` : `counts unknown${run.note ? `: ${run.note}` : ''}`}`;
    const files = testFiles.join(', ');
    const which = newFailing.length ? ` (${newFailing.slice(0, 5).join(', ')})` : '';
    const detail = failedBefore
      ? `the changed tests (${files}) failed on the base commit ${opts.baseSha.slice(0, 12)}${which} (${seen}): they catch what the change fixes`
      : `the changed tests (${files}) pass on the base commit ${opts.baseSha.slice(0, 12)} too (${seen}): add a test that fails without the fix`;
    return { passed: failedBefore, detail, testFiles, failedBefore, exitCode: run.exitCode, counts: c };
  } catch (e) {
    return { passed: false, detail: `could not run the tests on the base commit: ${(e as Error).message}`, testFiles, failedBefore: false };
  }
}
