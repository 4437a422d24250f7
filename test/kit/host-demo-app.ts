/**
 * The world of the App's end-to-end tests: the demo repository (examples/demo/repo) as acme/widgets behind a
 * local GitHub Enterprise stand-in (REST + git over HTTP), and the local Messages API server replaying the
 * demo session (examples/demo/session.jsonl), then saying "Done.".
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../fakes/github/server.js';
import { payload } from '../github/payloads.js';
import { tempDir } from './temp.js';

const root = process.cwd();
/** The installation token the stand-in accepts for git over HTTP. */
export const DEMO_TOKEN = 'ghs_fakeinstallationtoken000000000000000';

export const demoGit = (cwd: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });

interface SessionTurn {
  type: string;
  content: unknown[];
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

/** The demo session's assistant turns as Messages API message objects. */
function sessionMessages(): unknown[] {
  return readFileSync(join(root, 'examples/demo/session.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SessionTurn)
    .filter((e) => e.type === 'assistant')
    .map((e, i) => ({
      id: `msg_e2e_${i + 1}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: e.content,
      stop_reason: e.stopReason,
      usage: {
        input_tokens: e.usage.inputTokens,
        output_tokens: e.usage.outputTokens,
        cache_read_input_tokens: e.usage.cacheReadTokens,
        cache_creation_input_tokens: e.usage.cacheWriteTokens,
      },
    }));
}

export interface DemoWorld {
  /** The temp folder holding the seed, the bare repository (git/acme/widgets.git) and what a test adds. */
  work: string;
  /** The bare repository the stand-in serves. */
  bare: string;
  gh: FakeGitHubServer;
  model: FakeMessagesServer;
  close(): Promise<void>;
}

/** Starts the demo world; `configExtra` is appended to the demo's .github/proofpr.yml on the default branch. */
export async function startDemoWorld(prefix: string, configExtra = ''): Promise<DemoWorld> {
  const work = tempDir(prefix);
  const seed = join(work, 'seed');
  cpSync(join(root, 'examples/demo/repo'), seed, { recursive: true });
  demoGit(seed, ['init', '-q', '-b', 'main']);
  demoGit(seed, ['add', '-A']);
  demoGit(seed, ['commit', '-q', '-m', 'initial']);
  const gitRoot = join(work, 'git');
  const bare = join(gitRoot, 'acme', 'widgets.git');
  demoGit(work, ['clone', '-q', '--bare', seed, bare]);
  demoGit(bare, ['config', 'http.receivepack', 'true']);
  const gh = await startFakeGitHubServer({
    apiPrefix: '/api/v3',
    git: { root: gitRoot, token: DEMO_TOKEN },
    bareDir: bare,
    config: `${readFileSync(join(seed, '.github', 'proofpr.yml'), 'utf8')}${configExtra}`,
    permissions: { maintainer: { permission: 'write', role_name: 'write' } },
  });
  const turns = sessionMessages();
  const model = await startFakeMessagesServer(
    (_body, n) =>
      turns[n - 1] ?? {
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
  );
  return {
    work,
    bare,
    gh,
    model,
    async close() {
      await model.close();
      await gh.close();
    },
  };
}

/** The demo issue (examples/demo/issue.json). */
export function demoIssue(): { number: number; title: string; body: string } {
  return JSON.parse(readFileSync(join(root, 'examples/demo/issue.json'), 'utf8')) as { number: number; title: string; body: string };
}

/** The webhook payload of a maintainer's `/agent fix` comment on the demo issue. */
export function demoFixComment(): unknown {
  const issue = demoIssue();
  return payload('issue_comment.created', (p) => {
    p.issue.number = issue.number;
    p.issue.title = issue.title;
    p.issue.body = issue.body;
    p.comment.body = '/agent fix';
  });
}

/** Whether the stand-in holds proofpr's status comment in its final state (done, failed or aborted). */
export const demoRunFinished = (gh: FakeGitHubServer): boolean =>
  gh.state.comments.some((c) => /proofpr:run=[\s\S]*(done|failed|aborted)/.test(c.body));
