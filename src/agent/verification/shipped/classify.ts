import { git } from '../../../workspace/git.js';
import { stageAllAndWriteTree, withTempIndex } from '../../../workspace/temp-index.js';
import { isTestFile, testFilePatterns, type TestFilePatterns } from '../changes/test-files.js';
import { isHarnessPath } from './harness-paths.js';
import { cargoShipped } from './cargo.js';
import { goShipped } from './go.js';
import { npmShipped } from './npm.js';
import { pythonShipped } from './python.js';
import { testsOf, withoutTests } from './rust-tests.js';
import { commitTree, type CommitTree, type TreeSource } from './tree.js';
import type { ClassifiedChange, ChangeKind, EcosystemView, FixView } from './types.js';

/** Lock files of the ecosystems above (their package managers' own names): dependencies, like the manifests. */
const LOCK_FILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|poetry\.lock|uv\.lock|Pipfile\.lock|pdm\.lock|Cargo\.lock|go\.sum|go\.work\.sum)$/;

async function views(base: CommitTree, head: CommitTree, isTest: (p: string) => boolean): Promise<EcosystemView[]> {
  const all = await Promise.all([
    npmShipped(base, head, isTest),
    pythonShipped(base, head, isTest),
    goShipped(base, head),
    cargoShipped(base, head),
  ]);
  return all.filter((v): v is EcosystemView => v !== undefined);
}

/** Added, modified and deleted paths between two trees (no rename detection), with git's binary judgement. */
async function changedPaths(
  src: TreeSource,
  from: string,
  to: string,
): Promise<Array<{ path: string; status: 'A' | 'M' | 'D'; binary: boolean }>> {
  const env = { ...(src.gitDir ? { GIT_DIR: src.gitDir } : {}), ...src.env };
  const g = { cwd: src.root, env, config: { 'core.quotePath': 'false' } };
  const names = (await git(['diff', '--name-status', '--no-renames', '-z', from, to], g)).stdout.split('\0');
  const stat = (await git(['diff', '--numstat', '--no-renames', '-z', from, to], g)).stdout.split('\0');
  const binary = new Set<string>();
  for (const rec of stat) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (m && m[1] === '-' && m[2] === '-') binary.add(m[3] ?? '');
  }
  const out: Array<{ path: string; status: 'A' | 'M' | 'D'; binary: boolean }> = [];
  for (let i = 0; i + 1 < names.length; i += 2) {
    const s = (names[i] ?? '').charAt(0);
    const path = names[i + 1] ?? '';
    const status = s === 'A' ? 'A' : s === 'D' ? 'D' : 'M';
    out.push({ path, status, binary: binary.has(path) });
  }
  return out;
}

/** A shipped file with inline tests: which of its parts changed. */
async function rustParts(base: CommitTree, head: CommitTree, path: string): Promise<ChangeKind> {
  const a = (await base.text(path)) ?? '';
  const b = (await head.text(path)) ?? '';
  const code = withoutTests(a).trim() !== withoutTests(b).trim();
  const tests = testsOf(a).trim() !== testsOf(b).trim();
  return code && tests ? 'mixed' : tests ? 'inline-test' : 'shipped';
}

function kindOf(path: string, vs: EcosystemView[], isTest: (p: string) => boolean, patterns: TestFilePatterns): ChangeKind {
  if (isTest(path)) return 'test';
  if (LOCK_FILE.test(path) || vs.some((v) => v.manifests.includes(path))) return 'manifest';
  if (vs.length === 0) return isHarnessPath(path, patterns) ? 'infrastructure' : 'shipped';
  return vs.some((v) => v.shipped(path)) ? 'shipped' : 'infrastructure';
}

/**
 * Every path changed from `baseSha` to `to` (a commit or tree), and what it is: the code the project ships
 * (decided from its own manifests: npm entry points, the packages a wheel holds, a Go module's non-test
 * sources, a crate's library and binaries), a test (by the runner's identity), a manifest or lock file, or
 * test infrastructure (everything else, whatever its name). A Rust source is judged by part: its
 * `#[cfg(test)]` items are tests. With no manifest recognised, the test-harness paths are infrastructure
 * and the rest is shipped.
 */
export async function classifyTrees(src: TreeSource, baseSha: string, to: string): Promise<FixView> {
  const [base, head] = await Promise.all([commitTree(src, baseSha), commitTree(src, to)]);
  const patterns = testFilePatterns(src.root);
  const isTest = (p: string): boolean => isTestFile(p, patterns);
  const headViews = await views(base, head, isTest);
  const changes = await changedPaths(src, baseSha, to);
  // A deleted path is judged by what the base shipped.
  const baseViews = changes.some((c) => c.status === 'D') ? await views(base, base, isTest) : headViews;
  const out: ClassifiedChange[] = [];
  for (const c of changes) {
    const vs = c.status === 'D' ? baseViews : headViews;
    let kind = kindOf(c.path, vs, isTest, patterns);
    if (kind === 'shipped' && c.status === 'M' && vs.some((v) => v.mixed?.(c.path))) kind = await rustParts(base, head, c.path);
    out.push({ path: c.path, status: c.status, kind, ...(c.binary ? { binary: true } : {}) });
  }
  return { basis: headViews.map((v) => v.basis), changes: out };
}

const cache = new Map<string, Promise<FixView>>();

/** classifyTrees between two commits, cached per repository and pair. */
export function classifyCommits(src: TreeSource, baseSha: string, sha: string): Promise<FixView> {
  const key = `${src.root}\0${src.gitDir ?? ''}\0${baseSha}\0${sha}`;
  let p = cache.get(key);
  if (!p) {
    p = classifyTrees(src, baseSha, sha);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
    if (cache.size > 64) cache.delete(cache.keys().next().value!);
  }
  return p;
}

/** classifyTrees from the base to the worktree as it is now (untracked files included, ignored ones not). */
export async function classifyWorktree(root: string, baseSha: string, gitDir?: string): Promise<FixView> {
  return withTempIndex(
    root,
    async (env) => {
      const tree = await stageAllAndWriteTree(root, env);
      // Content-addressed: the same tree is classified once (red-green and generated-files both ask at a stop).
      return classifyCommits({ root, env, ...(gitDir ? { gitDir } : {}) }, baseSha, tree);
    },
    gitDir,
  );
}

/** The paths that are the fix: shipped code changed (a Rust source whose code changed). */
export const fixFiles = (v: FixView): string[] => v.changes.filter((c) => c.kind === 'shipped' || c.kind === 'mixed').map((c) => c.path);

/** The paths that are neither the fix, nor tests, nor dependencies. */
export const infrastructure = (v: FixView): ClassifiedChange[] => v.changes.filter((c) => c.kind === 'infrastructure');
