import { beforeAll, beforeEach } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { FileState } from '../../../src/tools/file-state.js';
import type { ToolContext, ToolResult } from '../../../src/tools/define-tool.js';
import type { ExecPort } from '../../../src/workspace/exec-port.js';
import { silentLogger } from '../../../src/log.js';
import { createRegistry, type ToolRegistry } from '../../../src/tools/registry.js';
import { defaultTools } from '../../../src/tools/index.js';
import { tempDir } from '../../kit/temp.js';
import { testExec } from './exec.js';

export interface TestRepo {
  root: string;
  runDir: string;
  ctx: ToolContext;
  write(rel: string, content: string | Buffer): string;
  cleanup(): void;
}

export interface RepoOptions {
  /** `git init` the root. */
  git?: boolean;
  /** Files to write (root-relative path → content). */
  files?: Record<string, string | Buffer>;
  /** Paths to `git add` (default every file when `commit` is given). */
  add?: string[];
  /** Commit what was added, with this message. */
  commit?: string;
}

/** The ToolContext a tool call gets: `root` as the worktree, `runDir` for saved outputs, `exec` for Bash. */
export function toolContext(root: string, runDir: string, exec: ExecPort = testExec): ToolContext {
  return { root, runDir, callId: 'call_1', fileState: new FileState(), exec, signal: new AbortController().signal, logger: silentLogger };
}

/** A real temp folder (realpath'd) as the worktree root, a run folder beside it, and a fresh ToolContext. */
export function makeRepo(opts: RepoOptions = {}): TestRepo {
  const base = tempDir('proofpr-tools-');
  const root = join(base, 'repo');
  const runDir = join(base, 'run');
  mkdirSync(root);
  mkdirSync(runDir);
  if (opts.git) execFileSync('git', ['init', '-q', '-b', 'main', root]);
  const repo: TestRepo = {
    root,
    runDir,
    ctx: toolContext(root, runDir),
    write(rel, content) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      return abs;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
  for (const [rel, content] of Object.entries(opts.files ?? {})) repo.write(rel, content);
  const add = opts.add ?? (opts.commit ? ['-A'] : []);
  if (add.length) git(root, 'add', ...add);
  if (opts.commit) git(root, 'commit', '-qm', opts.commit);
  return repo;
}

/**
 * The repository of a test file: a fresh one before each test, or (`once`) one made before all of them.
 * The object returned always speaks for the current one (its folders go when the file ends, see tempDir).
 */
export function useRepo(opts: RepoOptions & { once?: boolean } = {}): TestRepo {
  let current: TestRepo | undefined;
  (opts.once ? beforeAll : beforeEach)(() => {
    current = makeRepo(opts);
  });
  const now = (): TestRepo => {
    if (!current) throw new Error('useRepo: the repository is made in a before hook; use it inside a test or hook');
    return current;
  };
  return {
    get root() {
      return now().root;
    },
    get runDir() {
      return now().runDir;
    },
    get ctx() {
      return now().ctx;
    },
    write: (rel, content) => now().write(rel, content),
    cleanup: () => now().cleanup(),
  };
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
}

export type Call = (ctx: ToolContext, name: string, raw: unknown) => Promise<ToolResult>;

/** parse → execute through `registry`, as the loop does (without policy and hooks). */
export function callThrough(registry: ToolRegistry): Call {
  return async (ctx, name, raw) => {
    const parsed = registry.parse(name, raw);
    if (!parsed.ok) return parsed.result;
    return registry.execute(name, parsed.input, ctx);
  };
}

/** parse → execute through the default registry, as the loop does (without policy and hooks). */
export const call: Call = callThrough(createRegistry(defaultTools()));

/** Writes `rel`, reads it whole (Edit needs that first), then edits it with `edit`. */
export async function editAfterRead(
  repo: TestRepo,
  rel: string,
  content: string,
  edit: Record<string, unknown>,
): Promise<{ abs: string; r: ToolResult }> {
  const abs = repo.write(rel, content);
  await call(repo.ctx, 'Read', { file_path: rel });
  return { abs, r: await call(repo.ctx, 'Edit', { file_path: rel, ...edit }) };
}
