import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRepoConfig } from '../../config/repo-config.js';
import { createReplayModel } from '../../model/replay.js';
import { runTask } from '../../run/run-task.js';
import { issueBranch } from '../../usecases/branch-name.js';
import { newRunId } from '../../usecases/run-id.js';
import { sanitizeText } from '../../github/sanitize.js';
import { createRunProgress } from './progress.js';

/** examples/demo, found from src/hosts/cli (tests) or build/hosts/cli (the CLI): three levels up either way. */
export function demoDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'demo');
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=demo', '-c', 'user.email=demo@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

export interface DemoResult {
  exitCode: number;
  runDir: string;
  repoDir: string;
  branch: string;
}

/**
 * `proofpr demo`: the whole flow offline. A small repository with a real bug and a failing test is copied
 * to a temp folder and the real harness runs on it (real tools, permission checks, tests, gates, commit);
 * only the model's turns are replayed from examples/demo/session.jsonl.
 */
export async function runDemo(
  write: (s: string) => void = (s) => process.stdout.write(s),
  opts: { workDir?: string } = {},
): Promise<DemoResult> {
  const src = demoDir();
  const work = opts.workDir ?? (await mkdtemp(join(tmpdir(), 'proofpr-demo-')));
  const repoDir = join(work, 'repo');
  await cp(join(src, 'repo'), repoDir, { recursive: true });
  git(repoDir, ['init', '-q', '-b', 'main']);
  git(repoDir, ['add', '-A']);
  git(repoDir, ['commit', '-q', '-m', 'demo-stats: initial commit']);

  const issue = JSON.parse(await readFile(join(src, 'issue.json'), 'utf8')) as { number: number; title: string; body: string };
  const config = parseRepoConfig(await readFile(join(repoDir, '.github', 'proofpr.yml'), 'utf8'));
  const model = createReplayModel(join(src, 'session.jsonl'));
  const runId = newRunId();
  const runDir = join(work, 'runs', runId);
  const branch = issueBranch(issue.number, issue.title);

  write(
    [
      'proofpr demo: offline, no API key, no network.',
      "The model's turns are REPLAYED from examples/demo/session.jsonl (a recorded session).",
      'Everything else is real: tool calls, permission checks, test runs, gates and the git commit.',
      `repository: ${repoDir}`,
      `issue #${issue.number}: ${issue.title}`,
      '',
    ].join('\n'),
  );
  const progress = createRunProgress((l) => write(`${l}\n`));
  const res = await runTask({
    repoDir,
    branch,
    task: { kind: 'issue', issue: issue.number, title: issue.title, body: sanitizeText(issue.body) },
    config,
    model,
    modelId: config.model,
    mode: 'fix',
    runId,
    runDir,
    worktreesDir: join(work, 'worktrees'),
    repoFullName: 'example/demo-stats',
    onEvent: progress.onEvent,
  }).finally(() => progress.stop());
  write(`\n${res.summaryMd}\n`);
  write(`\nverdict: ${res.evidence.verdict} (exit code ${res.exitCode})\n`);
  if (res.headSha) write(`commit ${res.headSha.slice(0, 12)} on branch ${branch}: git -C ${repoDir} show ${branch}\n`);
  write(`report: ${join(runDir, 'report.html')}\n`);
  write(`evidence: ${join(runDir, 'evidence.json')}\n`);
  return { exitCode: res.exitCode, runDir, repoDir, branch };
}
