import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { FileState } from '../../../src/tools/file-state.js';
import type { ToolContext } from '../../../src/tools/define-tool.js';
import { silentLogger } from '../../../src/log.js';
import { testExec } from './exec.js';

export interface TestRepo {
  root: string;
  runDir: string;
  ctx: ToolContext;
  write(rel: string, content: string | Buffer): string;
  cleanup(): void;
}

/** A real temp folder (realpath'd) as the worktree root, a run folder beside it, and a fresh ToolContext. */
export function makeRepo(opts: { git?: boolean } = {}): TestRepo {
  const base = tempDir('proofpr-tools-');
  const root = join(base, 'repo');
  const runDir = join(base, 'run');
  mkdirSync(root);
  mkdirSync(runDir);
  if (opts.git) execFileSync('git', ['init', '-q', '-b', 'main', root]);
  const ctx: ToolContext = {
    root,
    runDir,
    callId: 'call_1',
    fileState: new FileState(),
    exec: testExec,
    signal: new AbortController().signal,
    logger: silentLogger,
  };
  return {
    root,
    runDir,
    ctx,
    write(rel, content) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      return abs;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
}

import { createRegistry } from '../../../src/tools/registry.js';
import { defaultTools } from '../../../src/tools/index.js';
import type { ToolResult } from '../../../src/tools/define-tool.js';
import { tempDir } from '../../kit/temp.js';

const registry = createRegistry(defaultTools());

/** parse → execute through the default registry, as the loop does (without policy and hooks). */
export async function call(ctx: ToolContext, name: string, raw: unknown): Promise<ToolResult> {
  const parsed = registry.parse(name, raw);
  if (!parsed.ok) return parsed.result;
  return registry.execute(name, parsed.input, ctx);
}
