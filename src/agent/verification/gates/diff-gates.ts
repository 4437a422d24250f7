import { assertionsKept, type AssertionsResult } from '../integrity/assertions.js';
import { gateDiff } from './gate-diff.js';
import { testConfigKept, type TestConfigResult } from '../integrity/test-config.js';
import type { VerifierContext } from '../verifier-context.js';
import type { FileDiff } from '../changes/worktree-diff.js';

export interface DiffGateFacts {
  assertions: AssertionsResult;
  testConfig: TestConfigResult;
}

/** The diff gates' facts (`reported`: the files the runners reported tests from, tests whatever their names); a failing diff (nested repository, bad base) fails both gates with its message. */
export async function diffGates(ctx: VerifierContext, reported?: ReadonlySet<string>): Promise<DiffGateFacts> {
  const { root, config, opts } = ctx;
  let diffs: FileDiff[];
  try {
    diffs = await gateDiff(root, opts.baseSha, opts.gitDir);
  } catch (e) {
    const detail = `could not diff the worktree against ${opts.baseSha.slice(0, 12)}: ${(e as Error).message.trim()}; remove nested git repositories (folders with their own .git) or add them to .gitignore`;
    return {
      assertions: { passed: false, detail, removed: [], skipsAdded: [], deletedTestFiles: [], changedTestFiles: [] },
      testConfig: { passed: false, detail, changed: [] },
    };
  }
  return {
    assertions: await assertionsKept(root, opts.baseSha, diffs, {
      allowed: config.gates.test_changes_allowed,
      ...ctx.gitDir,
      ...(reported?.size ? { reported } : {}),
    }),
    testConfig: await testConfigKept(root, opts.baseSha, diffs, config.test.command, opts.gitDir, {
      allowed: config.gates.test_changes_allowed,
    }),
  };
}
