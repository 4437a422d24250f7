/** Builds the App (createProofpr) against the nock GitHub, with a fake RunTask and workspace. */
import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import nock from 'nock';
import { generateKeyPairSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ProbotOctokit } from 'probot';
import { silentLogger } from '../../../src/log.js';
import { createProofpr, type Proofpr } from '../../../src/hosts/probot/create-proofpr.js';
import { startServer, type RunningServer, type ServerOptions } from '../../../src/hosts/probot/server.js';
import type { Evidence } from '../../../src/agent/evidence/types.js';
import type { RunEvent } from '../../../src/agent/events.js';
import type { RunTask, RunTaskInput, RunTaskResult } from '../../../src/run/run-task-types.js';
import type { ModelClient } from '../../../src/model/model-client.js';
import type { ModelFactory, WorkspacePort } from '../../../src/usecases/ports.js';
import type { RunStore } from '../../../src/jobs/run-store.js';
import { fakeGitHub, type FakeGitHub } from '../../fakes/github/nock.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';
import type { Clock } from '../../../src/usecases/watch-ci.js';
import { tempDir } from '../../kit/temp.js';

let key: string | undefined;
export function testPrivateKey(): string {
  key ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  return key;
}

/** Retry and throttling off. A function, because Probot passes its own `throttle` object that would replace a plain default. */
export const TestOctokit = ProbotOctokit.defaults((o: Record<string, unknown>) => ({
  ...o,
  retry: { enabled: false },
  throttle: { ...(o['throttle'] as object | undefined), enabled: false },
}));

export function evidence(verdict: Evidence['verdict'], patch: Partial<Evidence> = {}): Evidence {
  const ts = new Date().toISOString();
  return {
    version: 1,
    runId: 'r',
    startedAt: ts,
    endedAt: ts,
    verdict,
    reason: verdict === 'verified' ? 'every gate passed' : 'a gate failed after its retries',
    task: { kind: 'issue', issue: 12, title: 't' },
    repo: { baseSha: 'a'.repeat(40), branch: 'b' },
    gates:
      verdict === 'verified'
        ? [{ name: 'tests-passed', passed: true, detail: '3 passed' }]
        : [
            { name: 'tests-passed', passed: true, detail: 'ok' },
            { name: 'tests-ran', passed: false, detail: '0 tests executed, need 1' },
          ],
    testRuns: [],
    filesChanged: [],
    toolCalls: {},
    denied: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
    ...patch,
  };
}

const ev = (e: Record<string, unknown>): RunEvent => ({ ts: new Date().toISOString(), ...e }) as RunEvent;

export interface FakeRun {
  verdict?: Evidence['verdict'];
  headSha?: string;
  wip?: boolean;
  /** Waits for this before returning (or for the abort signal, then returns 'aborted'). */
  hold?: Promise<void>;
  planText?: string;
}

export function fakeRunTask(run: FakeRun = {}): { runTask: RunTask; inputs: RunTaskInput[]; started: Promise<void> } {
  const inputs: RunTaskInput[] = [];
  let markStarted: () => void = () => {};
  const started = new Promise<void>((r) => (markStarted = r));
  const runTask: RunTask = async (input): Promise<RunTaskResult> => {
    inputs.push(input);
    input.onEvent?.(
      ev({
        type: 'todo',
        todos: [
          { content: 'Reproduce the bug', status: 'completed' },
          { content: 'Fix the parser', status: 'in_progress' },
        ],
      }),
    );
    input.onEvent?.(
      ev({
        type: 'assistant',
        turn: 1,
        content: [{ type: 'text', text: run.planText ?? 'Looking.' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.02,
      }),
    );
    markStarted();
    let verdict = run.verdict ?? 'verified';
    if (run.hold || input.signal) {
      await new Promise<void>((resolve) => {
        if (input.signal?.aborted) return resolve();
        input.signal?.addEventListener('abort', () => {
          verdict = 'aborted';
          resolve();
        });
        (run.hold ?? Promise.resolve()).then(resolve, resolve);
      });
    }
    const headSha = input.mode === 'plan' ? undefined : (run.headSha ?? 'c'.repeat(40));
    return {
      evidence: evidence(verdict, { runId: input.runId }),
      exitCode: verdict === 'verified' ? 0 : 3,
      runDir: input.runDir,
      branch: input.branch,
      ...(headSha ? { headSha } : {}),
      wip: run.wip ?? verdict !== 'verified',
      summaryMd: `## proofpr: ${verdict}\n\nGates: tests-passed ✔`,
    };
  };
  return { runTask, inputs, started };
}

export function fakeWorkspace(): WorkspacePort & {
  pushes: Array<Parameters<WorkspacePort['pushBranch']>[0]>;
  mirrors: Array<Parameters<WorkspacePort['ensureMirror']>[0]>;
} {
  const pushes: Array<Parameters<WorkspacePort['pushBranch']>[0]> = [];
  const mirrors: Array<Parameters<WorkspacePort['ensureMirror']>[0]> = [];
  return {
    pushes,
    mirrors,
    async ensureMirror(o) {
      mirrors.push(o);
      return { dir: join(o.home, 'mirrors', 'acme', 'widgets.git') };
    },
    async pushBranch(o) {
      pushes.push(o);
      return { pushed: true, sha: 'c'.repeat(40) };
    },
  };
}

export const fakeModel: ModelClient = {
  async send() {
    throw new Error('the fake RunTask never calls the model');
  },
} as unknown as ModelClient;

export interface Harness {
  app: Proofpr;
  home: string;
  close(): Promise<void>;
}

export async function startHarness(
  runTask: RunTask,
  workspace: WorkspacePort,
  home = tempDir('proofpr-app-'),
  extra: { ciClock?: Clock; modelFactory?: ModelFactory; env?: NodeJS.ProcessEnv } = {},
): Promise<Harness> {
  const { env, ...rest } = extra;
  const app = await createProofpr({
    env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 'test-secret', PROOFPR_HOME: home, ...env },
    runTask,
    workspace,
    modelFactory: () => fakeModel,
    Octokit: TestOctokit,
    progressIntervalMs: 0,
    probotLog: silentLogger,
    ...rest,
  });
  return {
    app,
    home,
    async close() {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A finished run as seedDoneRuns takes it: id, repository, issue, verdict and its cost in USD. */
export type DoneRun = [id: string, repo: string, issue: number, verdict: string, costUsd: number];

/** Records finished runs in a run store (the SQLite one, or Redis's whose calls are async), as past spend. */
export async function seedDoneRuns(
  runs: {
    tryCreate(run: { id: string; repo: string; issue: number; kind: string }): unknown;
    update(id: string, patch: { status: 'done'; verdict: string; costUsd: number }): unknown;
  },
  done: DoneRun[],
): Promise<void> {
  for (const [id, repo, issue, verdict, costUsd] of done) {
    await runs.tryCreate({ id, repo, issue, kind: 'fix' });
    await runs.update(id, { status: 'done', verdict, costUsd });
  }
}

export async function until(cond: () => boolean, ms = 10000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface AppStart {
  /** The fake GitHub's state (permissions, config, pulls, refs …). */
  github?: FakeGitHubOptions;
  /** Default: a fake RunTask that answers verified. */
  runTask?: RunTask;
  /** Default: fakeWorkspace() (pushes recorded, nothing pushed). */
  workspace?: WorkspacePort;
  modelFactory?: ModelFactory;
  ciClock?: Clock;
  /** More App settings (the server's environment), e.g. PROOFPR_INSTALLATION_MONTHLY_USD. */
  env?: NodeJS.ProcessEnv;
}

/** One App test's world: the fake GitHub, the App on it, and the steps every App test repeats. */
export interface AppHarness {
  /** The fake GitHub of the running test (after `start`). */
  readonly gh: FakeGitHub;
  /** The App of the running test (after `start`). */
  readonly h: Harness;
  /** Its run store. */
  readonly runs: RunStore;
  start(o?: AppStart): Promise<Harness>;
  /** One webhook delivery through Probot (signature checks aside), awaited. */
  receive(name: string, payload: unknown, id?: string): Promise<void>;
  /** Until the latest run of issue or PR `number` is done. */
  done(number: number, ms?: number): Promise<void>;
}

let deliveries = 0;

/**
 * The App test lifecycle, once: nock active and the network off for each test, the App closed and its home
 * removed after each, the interceptors restored after the file. Call it once per file (or describe).
 */
export function useAppHarness(): AppHarness {
  let gh: FakeGitHub | undefined;
  let h: Harness | undefined;
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
  });
  beforeEach(() => nock.disableNetConnect());
  afterEach(async () => {
    await h?.close();
    h = undefined;
    gh = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
  const started = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`${what}: call start() first`);
    return x;
  };
  return {
    get gh() {
      return started(gh, 'gh');
    },
    get h() {
      return started(h, 'h');
    },
    get runs() {
      return started(h, 'runs').app.runs as RunStore;
    },
    async start(o = {}) {
      gh = fakeGitHub(o.github ?? {});
      h = await startHarness(o.runTask ?? fakeRunTask().runTask, o.workspace ?? fakeWorkspace(), undefined, {
        ...(o.ciClock ? { ciClock: o.ciClock } : {}),
        ...(o.modelFactory ? { modelFactory: o.modelFactory } : {}),
        ...(o.env ? { env: o.env } : {}),
      });
      return h;
    },
    async receive(name, payload, id = `delivery-${++deliveries}`) {
      await started(h, 'receive').app.probot.receive({ id, name, payload } as never);
    },
    async done(number, ms) {
      await until(() => (h?.app.runs as RunStore | undefined)?.latest('acme/widgets', number)?.status === 'done', ms);
    },
  };
}

/** What `useServeHarness` gives a test: its home, the server's settings with the fakes, and the server it starts. */
export interface ServeHarness {
  /** The running test's PROOFPR_HOME (a new temp folder). */
  readonly home: string;
  /** The server's environment: the App's id, key and secret, this test's home, the sweep scheduler off, then `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The fakes and a listener on 127.0.0.1 (a free port) for startServer or serveCommand. */
  options(): ServerOptions;
  /** startServer with options() and env(), a verified fake RunTask, then `opts`; closed after the test. */
  start(opts?: ServerOptions): Promise<RunningServer>;
  /** Closes the started server now (for a test of what closing does). */
  stop(): Promise<void>;
}

/**
 * The `proofpr serve` test lifecycle, once: a new home and the network off but 127.0.0.1 for each test,
 * the server it started closed after it, nock's interceptors restored after the file (or describe).
 */
export function useServeHarness(prefix: string): ServeHarness {
  let home = '';
  let server: RunningServer | undefined;
  beforeEach(() => {
    home = tempDir(prefix);
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
  const harness: ServeHarness = {
    get home() {
      return home;
    },
    env: (extra = {}) => ({
      APP_ID: '1',
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: 's',
      PROOFPR_HOME: home,
      PROOFPR_SWEEP_SCHEDULER: 'off',
      ...extra,
    }),
    options: () => ({
      port: 0,
      host: '127.0.0.1',
      workspace: fakeWorkspace(),
      modelFactory: () => fakeModel,
      Octokit: TestOctokit,
      progressIntervalMs: 0,
      probotLog: silentLogger,
    }),
    async start(opts = {}) {
      server = await startServer({ ...harness.options(), env: harness.env(), runTask: fakeRunTask().runTask, ...opts });
      return server;
    },
    async stop() {
      await server?.close();
      server = undefined;
    },
  };
  return harness;
}
