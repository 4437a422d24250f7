/**
 * Every token shape through every artifact of a real scripted run (issue 23, "one secrets module"; issue 24's
 * "a test pushes every token shape through every artifact and finds none"). `proofpr run --github-repo` in
 * process against the fake GitHub server and a real git remote; the scripted model echoes every shape (one per
 * token rule, URL credentials, a PEM block, a JWT, the value of a secret environment variable) in its text, in
 * tool input, in a file it writes and reads back, and the base's failing test prints them; the issue title (the
 * commit message's subject) carries one. Then every file of the run folder, every request body GitHub received,
 * the pushed refs and commit messages, and every log line are searched: none holds a secret.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import nock from 'nock';
import { startFakeGitHubServer, type FakeGitHubServer } from '../fakes/github/server.js';
import { git } from '../action/harness.js';
import { startGitHttpServer, type GitHttpServer } from '../workspace/http-git-server.js';
import { REDACTED } from '../../src/secrets/index.js';
import { findCredentials } from '../../src/secrets/files.js';
import { JWT, PEM_BLOCK, SHAPES } from './secrets-shapes.js';
import { tempDir } from '../kit/temp.js';

const TOKEN = `ghp_${'Cl1Tok'.repeat(6)}`;
const ENV_SECRET_NAME = 'PROOFPR_LEAKTEST_DEPLOY_SECRET';
const ENV_SECRET = 'deploy value known only from the environment';
const ALL = [...Object.values(SHAPES).map((s) => s.text), PEM_BLOCK, JWT, ENV_SECRET].join('\n');
/**
 * The shapes no wall judges a file by (the content rules of src/secrets/credential-content.ts find no
 * credential in them): only redaction removes them.
 */
const LOOSE = [
  ...Object.values(SHAPES)
    .filter((s) => findCredentials(s.text).length === 0)
    .map((s) => s.text),
  JWT,
  ENV_SECRET,
].join('\n');
/** What must not appear anywhere: the secret part of every shape, the environment value, the git token. */
const NEEDLES = [
  ...Object.entries(SHAPES).map(([id, s]) => [id, s.secret]),
  ['pem', 'IBAAKCAQEA'],
  ['jwt', 'eyJzdWIiOiJwcm9vZnByLXRlc3QifQ'],
  ['env', ENV_SECRET],
  ['git token', TOKEN.slice(4)],
] as const;

/** The seed's test prints every shape when it fails (built from base64 at run time, so the file itself looks clean). */
function seedTest(dir: string): void {
  const file = join(dir, 'test', 'stats.test.js');
  const leak = `const LEAK = Buffer.from('${Buffer.from(ALL).toString('base64')}', 'base64').toString('utf8');\n`;
  const text = readFileSync(file, 'utf8').replace('assert.equal(median([10, 9, 2]), 9);', 'assert.equal(median([10, 9, 2]), 9, LEAK);');
  writeFileSync(
    file,
    text.replace("import { mean, median } from '../src/stats.js';\n", `import { mean, median } from '../src/stats.js';\n${leak}`),
  );
  writeFileSync(join(dir, '.gitignore'), 'scratch/\nnode_modules/\n');
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? allFiles(p) : e.isFile() ? [p] : [];
  });
}

function leaksIn(where: string, text: string): string[] {
  return NEEDLES.filter(([, needle]) => text.includes(needle)).map(([id]) => `${id} in ${where}`);
}

type ScriptedModule = typeof import('../../src/model/scripted.js');

function leakingModel(m: ScriptedModule) {
  const { createScriptedModel, text, toolUse } = m;
  return createScriptedModel([
    {
      content: [
        text(`Here is what I saw:\n${ALL}`),
        toolUse('Bash', { command: 'node --test', description: `run the tests ${SHAPES['secretlint/npm']?.text}` }),
      ],
    },
    { content: [toolUse('Write', { file_path: 'scratch/echo.txt', content: ALL })] },
    { content: [toolUse('Read', { file_path: 'scratch/echo.txt' })] },
    // The walls hide a file holding a credential by content; one with only the looser shapes is read back.
    { content: [toolUse('Write', { file_path: 'scratch/loose.txt', content: LOOSE })] },
    { content: [toolUse('Read', { file_path: 'scratch/loose.txt' })] },
    { content: [toolUse('Grep', { pattern: 'Bearer', path: 'scratch', output_mode: 'content' })] },
    { content: [toolUse('Read', { file_path: 'src/stats.js' })] },
    {
      content: [
        toolUse('Edit', {
          file_path: 'src/stats.js',
          old_string: 'const sorted = [...values].sort();',
          new_string: 'const sorted = [...values].sort((a, b) => a - b);',
        }),
      ],
    },
    { content: [toolUse('Bash', { command: 'node --test', description: 'run the tests' })] },
    { content: [text(`median() now sorts numerically. For the record: ${ALL}`)] },
  ]);
}

describe('secrets - no token shape reaches any artifact of a run', () => {
  let work: string;
  let gitServer: GitHttpServer;
  let server: FakeGitHubServer;
  let bare: string;
  const logLines: string[] = [];
  let restoreWrite: () => void = () => undefined;

  beforeAll(async () => {
    work = tempDir('proofpr-leaks-');
    bare = join(work, 'remote', 'acme', 'demo.git');
    mkdirSync(bare, { recursive: true });
    git(bare, 'init', '-q', '--bare', '-b', 'main');
    git(bare, 'config', 'http.receivepack', 'true');
    const seed = join(work, 'seed');
    cpSync(resolve('examples/demo/repo'), seed, { recursive: true });
    seedTest(seed);
    git(seed, 'init', '-q', '-b', 'main');
    git(seed, 'add', '-A');
    git(seed, 'commit', '-q', '-m', 'initial');
    git(seed, 'push', '-q', bare, 'main');
    gitServer = await startGitHttpServer(join(work, 'remote'), `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
    const serverUrl = gitServer.url('').replace(/\/$/, '');
    const config = readFileSync(resolve('examples/demo/repo/.github/proofpr.yml'), 'utf8');
    server = await startFakeGitHubServer({ owner: 'acme', repo: 'demo', bareDir: bare, webUrl: () => serverUrl, self: 'octocat', config });
    // Log lines: every level, captured where pino writes them (fd 2).
    const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
    const { write, writeSync } = fs;
    const keep = (data: unknown): number => {
      const s = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
      logLines.push(s);
      return Buffer.byteLength(s);
    };
    const patched = fs as unknown as Record<'write' | 'writeSync', (...a: unknown[]) => unknown>;
    patched.writeSync = (fd, data, ...rest) => (fd === 2 ? keep(data) : (writeSync as (...a: unknown[]) => number)(fd, data, ...rest));
    patched.write = (fd, data, ...rest) => {
      if (fd !== 2) return (write as (...a: unknown[]) => void)(fd, data, ...rest);
      const n = keep(data);
      const cb = rest.find((x) => typeof x === 'function') as ((e: null, n: number) => void) | undefined;
      process.nextTick(() => cb?.(null, n));
    };
    restoreWrite = () => Object.assign(fs, { write, writeSync });
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });

  afterAll(async () => {
    restoreWrite();
    delete process.env[ENV_SECRET_NAME];
    nock.enableNetConnect();
    nock.restore();
    await server?.close();
    await gitServer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('run folder, GitHub requests, pushed refs and commit messages, log lines: no secret in any of them', async () => {
    process.env[ENV_SECRET_NAME] = ENV_SECRET;
    process.env.LOG_LEVEL = 'trace';
    const { runCommand } = await import('../../src/hosts/cli/run-command.js');
    const scripted = await import('../../src/model/scripted.js');
    const title = `median() is wrong, seen with ${SHAPES['gitlab-token']?.text}`;
    nock(server.url, { allowUnmocked: true })
      .get('/repos/acme/demo/issues/7')
      .reply(200, { number: 7, title, body: `Repro with ${ALL}`, state: 'open' })
      .get('/user')
      .reply(200, { login: 'octocat', id: 583231 });
    const out: string[] = [];
    const err: string[] = [];
    const env = {
      PATH: process.env.PATH,
      HOME: join(work, 'home'),
      PROOFPR_HOME: join(work, 'proofpr-home'),
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: server.url,
      GITHUB_SERVER_URL: gitServer.url('').replace(/\/$/, ''),
      [ENV_SECRET_NAME]: ENV_SECRET,
    };
    const code = await runCommand(
      { githubRepo: 'acme/demo', issue: '7', json: true },
      { env, model: leakingModel(scripted), stdout: (s) => out.push(s), stderr: (s) => err.push(s) },
    );
    const evidence = JSON.parse(out.join('').trim().split('\n').pop() ?? '{}') as { runId: string; verdict: string; reason: string };
    const runDir = join(env.PROOFPR_HOME, 'runs', evidence.runId);
    const files = allFiles(runDir);
    // The run really went through every artifact: a verified PR, a transcript, tool-output files, the page.
    expect({ code, verdict: evidence.verdict, reason: evidence.reason }).toEqual({
      code: 0,
      verdict: 'verified',
      reason: evidence.verdict === 'verified' ? evidence.reason : '(the reason of a verified run)',
    });
    for (const name of ['evidence.json', 'transcript.jsonl', 'summary.md', 'report.html'])
      expect(files.map((f) => f.slice(runDir.length + 1))).toContain(name);
    expect(files.some((f) => f.includes('tool-output'))).toBe(true);
    expect(server.state.pulls).toHaveLength(1);
    expect(server.state.comments.length).toBeGreaterThan(0);
    expect(logLines.length).toBeGreaterThan(0);

    // The shapes really went through: read back by a tool, printed by the failing test, quoted to GitHub, in the commit subject.
    const events = readFileSync(join(runDir, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; name?: string; isError?: boolean; preview?: string });
    const readBack = events.filter((e) => e.type === 'tool_result' && e.name === 'Read' && !e.isError && e.preview?.includes(REDACTED));
    expect(readBack.length).toBeGreaterThan(0);
    expect(readFileSync(join(runDir, 'tool-output', 'baseline-test-run.txt'), 'utf8')).toContain(REDACTED);
    expect(JSON.stringify(server.state.calls)).toContain(REDACTED);
    expect(git(bare, 'log', '--all', '--format=%B')).toContain(`glpat-${REDACTED}`);

    const leaks = [
      ...files
        .filter((f) => statSync(f).size < 64 * 1024 * 1024)
        .flatMap((f) => leaksIn(f.slice(runDir.length + 1), readFileSync(f, 'utf8'))),
      ...leaksIn('GitHub requests', JSON.stringify(server.state.calls)),
      ...leaksIn('PR bodies', server.state.pulls.map((p) => `${p.title}\n${p.body}`).join('\n')),
      ...leaksIn('comments', server.state.comments.flatMap((c) => c.bodies).join('\n')),
      ...leaksIn('pushed refs', git(bare, 'for-each-ref', '--format=%(refname)')),
      ...leaksIn('commit messages', git(bare, 'log', '--all', '--format=%B')),
      ...leaksIn('log lines', logLines.join('')),
      ...leaksIn('stdout/stderr', out.join('') + err.join('')),
    ];
    expect(leaks).toEqual([]);
  }, 240_000);
});
