/**
 * Drives the bundled Action (`node dist/index.js`, from a copy of dist/ outside the repository so it must be
 * self-contained) as a child process against: a real bare repository behind `git http-backend`
 * (GITHUB_SERVER_URL), a fake REST API (GITHUB_API_URL) and the fake Messages server (ANTHROPIC_BASE_URL).
 */
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { startGitHttpServer, type GitHttpServer } from '../workspace/http-git-server.js';
import { startFakeGitHubServer } from '../fakes/github/server.js';
import type { FakePull, GitHubState } from '../fakes/github/state.js';
import type { CiFakeOptions } from '../fakes/github/ci-routes.js';
import { tempDir } from '../kit/temp.js';

export const TOKEN = 'ghs_fakeActionToken0123456789abcdefXYZ';
export const API_KEY = 'sk-ant-fake-action-key-0123456789';
const DEMO = resolve('examples/demo/repo');
const DIST = resolve('dist');

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  }).trim();
}

type Block = Record<string, unknown>;
let toolIds = 0;
export const tool = (name: string, input: Record<string, unknown>): Block => ({ type: 'tool_use', id: `toolu_${++toolIds}`, name, input });
export const text = (t: string): Block => ({ type: 'text', text: t });

/** The demo fix: read, edit the sort, run the tests, say so. */
export const FIX_STEPS: Block[][] = [
  [text('Reading the code.'), tool('Read', { file_path: 'src/stats.js' })],
  [
    tool('Edit', {
      file_path: 'src/stats.js',
      old_string: 'const sorted = [...values].sort();',
      new_string: 'const sorted = [...values].sort((a, b) => a - b);',
    }),
  ],
  [tool('Bash', { command: 'node --test', description: 'run the tests' })],
  [text('median() now sorts numerically; the tests pass.')],
];

/** Nothing to do: look, run the tests, stop. */
export const NOTHING_STEPS: Block[][] = [
  [tool('Read', { file_path: 'src/stats.js' })],
  [tool('Bash', { command: 'node --test', description: 'run the tests' })],
  [text('Nothing to change: median() already sorts numerically.')],
];

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface ActionFixture {
  work: string;
  bare: string;
  workspace: string;
  github: GitHubState;
  model: FakeMessagesServer;
  gitServer: GitHttpServer;
  /** The model's turns, or a function choosing them per conversation (by its first request's body). */
  setSteps(steps: Block[][] | ((body: unknown) => Block[][])): void;
  run(eventName: string, payload: unknown, inputs?: Record<string, string>, env?: Record<string, string>): Promise<RunResult>;
  /** Commit a change on main in the remote (a merged PR) and pull it into the checkout. */
  commitOnMain(file: string, content: string, message: string): void;
  close(): Promise<void>;
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^(\w+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) out[m[1] ?? ''] = m[3] ?? '';
  return out;
}

/** A checkout of a fresh remote seeded from the demo repository; `mutate` edits the seed before the first commit. */
/** `ci`: the fake repository's CI (default: passed at once on every sha), with Actions jobs and logs. */
/** `tokenLogin`: the github_token's identity (GraphQL viewer); default an App's bot, whose pushes start CI. */
export async function actionFixture(
  mutate?: (dir: string) => void,
  ciFake?: (serverUrl: string) => CiFakeOptions,
  opts: { tokenLogin?: string | null } = {},
): Promise<ActionFixture> {
  const work = tempDir('proofpr-action-');
  const dist = join(work, 'action');
  cpSync(DIST, dist, { recursive: true });
  const root = join(work, 'remote');
  const bare = join(root, 'acme', 'demo.git');
  mkdirSync(bare, { recursive: true });
  git(bare, 'init', '-q', '--bare', '-b', 'main');
  git(bare, 'config', 'http.receivepack', 'true');
  const seed = join(work, 'seed');
  cpSync(DEMO, seed, { recursive: true });
  mutate?.(seed);
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'initial');
  git(seed, 'push', '-q', bare, 'main');
  const workspace = join(work, 'workspace');
  git(work, 'clone', '-q', bare, workspace);

  const gitServer = await startGitHttpServer(root, `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
  const serverUrl = gitServer.url('').replace(/\/$/, '');
  git(workspace, 'remote', 'set-url', 'origin', `${serverUrl}/acme/demo.git`);
  const server = await startFakeGitHubServer({
    owner: 'acme',
    repo: 'demo',
    bareDir: bare,
    webUrl: () => serverUrl,
    self: 'github-actions[bot]',
    viewer: opts.tokenLogin === undefined ? 'proofpr-test-app[bot]' : opts.tokenLogin,
    // The repository's CI passed on whatever sha is asked (the Action's bounded CI wait ends at once).
    ci: () => ({
      check_runs: [
        {
          id: 1,
          name: 'test',
          status: 'completed',
          conclusion: 'success',
          html_url: `${serverUrl}/acme/demo/runs/1`,
          app: { slug: 'github-actions' },
        },
      ],
    }),
    ...ciFake?.(serverUrl),
  });
  const github = server.state;
  let steps: Block[][] | ((body: unknown) => Block[][]) = FIX_STEPS;
  const model = await startFakeMessagesServer((body) => {
    const msgs = ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((m) => m.role === 'assistant').length;
    const list = typeof steps === 'function' ? steps(body) : steps;
    const content = list[Math.min(msgs, list.length - 1)] ?? [text('done')];
    return {
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      usage: { input_tokens: 100, output_tokens: 20 },
    };
  });
  let runs = 0;

  const run = (
    eventName: string,
    payload: unknown,
    inputs: Record<string, string> = {},
    env: Record<string, string> = {},
  ): Promise<RunResult> => {
    runs += 1;
    const dir = join(work, `step-${runs}`);
    mkdirSync(dir);
    const eventPath = join(dir, 'event.json');
    writeFileSync(eventPath, JSON.stringify(payload));
    writeFileSync(join(dir, 'output'), '');
    writeFileSync(join(dir, 'summary.md'), '');
    const allInputs: Record<string, string> = {
      anthropic_api_key: API_KEY,
      github_token: TOKEN,
      trigger: '/agent',
      mode: 'auto',
      config: '.github/proofpr.yml',
      ...inputs,
    };
    const childEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: join(work, 'home'),
      LOG_LEVEL: 'warn',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'acme/demo',
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: server.url,
      GITHUB_SERVER_URL: serverUrl,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: String(runs),
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      RUNNER_TEMP: join(work, 'runner-temp'),
      ANTHROPIC_BASE_URL: model.url,
      ...Object.fromEntries(Object.entries(allInputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      ...env,
    };
    return new Promise((resolveRun) => {
      const child = spawn(process.execPath, [join(dist, 'index.js')], { cwd: workspace, env: childEnv });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) =>
        resolveRun({
          code,
          stdout,
          stderr,
          outputs: parseOutputs(readFileSync(join(dir, 'output'), 'utf8')),
          summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
        }),
      );
    });
  };

  return {
    work,
    bare,
    workspace,
    github,
    model,
    gitServer,
    setSteps: (s) => (steps = s),
    run,
    commitOnMain(file, content, message) {
      const tmp = join(work, `merge-${Date.now()}`);
      git(work, 'clone', '-q', bare, tmp);
      writeFileSync(join(tmp, file), content);
      git(tmp, 'commit', '-q', '-am', message);
      git(tmp, 'push', '-q', 'origin', 'main');
      git(workspace, 'pull', '-q', '--ff-only', bare, 'main');
    },
    async close() {
      await Promise.all([server.close(), model.close(), gitServer.close()]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

export function issueCommentEvent(
  body: string,
  user = 'alice',
  issue = {
    number: 7,
    title: 'median() is wrong for numbers with different digit counts',
    body: 'median([10, 9, 2]) returns 2, expected 9',
  },
) {
  return {
    action: 'created',
    issue: { ...issue },
    comment: {
      id: 4242,
      body,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      user: { login: user, id: 11, type: 'User' },
    },
    repository: { name: 'demo', owner: { login: 'acme' }, default_branch: 'main' },
    sender: { login: user, id: 11, type: 'User' },
  };
}

/** An open PR `number` from mallory's fork whose head is named like one of proofpr's branches: proofpr must not touch it. */
export function forkPullNamedLikeOurs(number: number): FakePull {
  return {
    number,
    title: 'Sneaky',
    body: 'Fixes #7',
    head: 'proofpr/7-looks-like-ours',
    base: 'main',
    state: 'open',
    draft: false,
    labels: [],
    headRepo: 'mallory/demo',
  };
}
