/**
 * Everything that happens in a run is a RunEvent. The loop yields them, the transcript writes them one
 * per line, and the evidence is a pure function of the ledger of them.
 */
import type { AssistantBlock, Usage } from '../model/model-client.js';
import type { TodoItem, ToolKind } from '../tools/define-tool.js';
import type { SecondLook } from './second-look/types.js';

export type Verdict = 'verified' | 'unverified' | 'aborted' | 'error';

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

/** Where counts came from; 'runner-report' is a report proofpr asked the runner for in another format (see `runner`). */
export type CountSource = 'junit' | 'jest-json' | 'tap' | 'runner-report' | 'summary-line' | 'none';

export type TestOutcome = 'passed' | 'failed' | 'skipped';

/** A runner's count in a harness run, as the harness counted it and as the runner's own summary lines say. */
export interface CountCheck {
  runner: string;
  counted: TestCounts;
  summary: TestCounts;
  /** passed, failed and skipped are equal in both. */
  agree: boolean;
}

/** One test of a run, as the runner's report names it: `id` is "<file> > <full name>" (or the full name when the runner gives no file). */
export interface TestCase {
  id: string;
  outcome: TestOutcome;
  /** The test file, relative to the run's folder, when the report names it. */
  file?: string;
}

export interface TestRun {
  command: string;
  exitCode: number | null;
  startedAt: string;
  endedAt: string;
  /** Content hash of the worktree when the run started (git write-tree of `git add -A` into a temp index). */
  treeHash: string;
  /** Unknown counts (no report, no recognised summary line) are null: that fails tests-ran. */
  counts: TestCounts | null;
  source: CountSource;
  reportPath?: string;
  /** Which runner's summary line matched (jest, vitest, pytest, ...), when source is summary-line. */
  runner?: string;
  /** 'agent' when the model ran it through Bash; 'harness' for the final run and baselines. */
  by: 'agent' | 'harness';
  outputPath?: string;
  /** Per-test identities and outcomes, when the runner's report gives them (harness runs). */
  tests?: TestCase[];
  /** The commit the harness ran on, in a clean checkout (final run: the commit that is pushed; baseline: the base). */
  commit?: string;
  /** What the harness run was: the final run of the commit, the baseline on the base commit, or red→green's base + test changes. */
  kind?: 'final' | 'baseline' | 'red-green' | 'kept';
  /** Final run: ids that failed on the base commit and pass in this run (red → green). */
  fixed?: string[];
  /** Why counts are unknown or came from a fallback (e.g. no runner call was observed). */
  note?: string;
  /** Harness runs: masked files (content matching a secret rule) the tests read; permissions.readable opts one in. */
  maskedReads?: string[];
  /**
   * Harness runs: every runner call inside the command as written (`tsc && jest && pytest` has two),
   * with where its counts came from: its report (`from`: the report file's name) or its summary lines
   * (`from: "output"`). `counts` above is their sum.
   */
  calls?: Array<{ runner: string; source: CountSource; counts: TestCounts; from: string }>;
  /**
   * Harness runs: the count held against the runner's own printed summary (uvu's `Total/Passed/Skipped`,
   * mocha's `N passing`, node-tap's closing `# { total }`, cargo's `test result:` lines summed), per runner
   * that printed one. When `agree` is false the count is not trusted: `counts` is null and `note` names both.
   */
  countCheck?: CountCheck[];
  /** Harness runs made again after a failing test (verify.flaky_reruns): the tests that both passed and failed on this tree. */
  flaky?: FlakyTest[];
}

/** A test that both passed and failed on the same tree (CONTRACT §11): `failures` of its `runs` failed. */
export interface FlakyTest {
  test: string;
  runs: number;
  failures: number;
}

/** Changed code outside the tests whose reversion no test noticed (CONTRACT §11); lines of the head's file, 1-based. */
export interface UntestedHunk {
  file: string;
  startLine: number;
  endLine: number;
}

/**
 * A base test whose expectation the change altered: it passed on the base and fails on the new code under
 * the base's tests, or the change deleted, renamed or skipped it (whatever its outcome there).
 */
export interface ChangedExpectation {
  test: string;
  /** Where to read the old expectation (the base version of the test's file) and the new one. */
  base: string;
  now: string;
  /** How the base test fails on the new code (empty when it passes there). */
  failure: string;
  /**
   * What the change did to the base test: altered what it expects (`changed`, also when absent), left it
   * out of the final run (`deleted`), put another test in its place (`renamed`: `now` names it), or
   * skipped it (`skipped`).
   */
  kind?: 'changed' | 'deleted' | 'renamed' | 'skipped';
  /** The base test's outcome on the new code under the base's own tests (the kept run). */
  outcome?: 'passed' | 'failed' | 'skipped' | 'not run';
}

/**
 * The differential runs (CONTRACT §10): the commit's source under the base commit's test harness
 * (`kept`), and what it showed.
 */
export interface Differential {
  kept: {
    command: string;
    counts: TestCounts | null;
    /** Ids that failed in that run. */
    failedTests: string[];
    /** Harness paths put back to the base version, removed (added by the agent), package.json files whose test scripts were restored. */
    restored: string[];
    removed: string[];
    packageJson: string[];
    outputPath?: string;
    durationMs: number;
  };
}

export interface GateResult {
  name: string;
  passed: boolean;
  detail: string;
  /**
   * The gate found what it looks for (its detail says what) and lets the run through all the same:
   * another check decides (the kept run), or the config allows it. `passed` stays true (it does not
   * block the verdict); the PR body shows it as advisory, never as passed.
   */
  advisory?: true;
}

export type { TodoItem };

export interface Denial {
  tool: string;
  input: string;
  rule: string;
  reason: string;
}

type Ev<T extends string, B> = { type: T; ts: string } & B;

export type RunEvent =
  | Ev<
      'run_start',
      {
        runId: string;
        task: { kind: string; title?: string; issue?: number };
        model: string;
        root: string;
        sandbox?: string;
        /** Why there is no sandbox, when there is none: said at the start of the run. */
        sandboxReason?: string;
        /** The run's test and setup commands, configured or detected, and why. */
        test?: { command: string; source: 'configured' | 'detected'; why: string };
        setup?: { command?: string; source?: 'configured' | 'detected'; why: string };
      }
    >
  | Ev<'request', { turn: number; messages: number; estimatedTokens: number }>
  | Ev<'assistant', { turn: number; content: AssistantBlock[]; stopReason: string; usage: Usage; costUsd: number }>
  | Ev<'tool_call', { id: string; name: string; kind?: ToolKind; input: unknown }>
  | Ev<
      'tool_result',
      {
        id: string;
        name: string;
        kind?: ToolKind;
        isError: boolean;
        errorKind?: string;
        preview: string;
        durationMs: number;
        outputPath?: string;
        meta?: Record<string, unknown>;
      }
    >
  | Ev<'permission', { tool: string; input: string; behavior: 'allow' | 'deny'; rule: string; reason: string }>
  | Ev<'hook', { event: string; name: string; outcome: 'continue' | 'block' | 'context' | 'error'; message?: string }>
  | Ev<'gate', { name: string; passed: boolean; detail: string; final: boolean; advisory?: true }>
  | Ev<'test_run', { run: TestRun }>
  | Ev<'differential', { differential: Differential; changedExpectations: ChangedExpectation[] }>
  /** The shipped-code changes and whether reverting them makes the new tests fail again (evidence `fix`). */
  | Ev<'fix', { fix: { files: string[]; attributed: boolean } }>
  /** The untested hunks check after the final run (verification/hunks): the hunks no test noticed, and the extra runs it made. */
  | Ev<
      'untested_hunks',
      {
        hunks: UntestedHunk[];
        runs: number;
        checked: number;
        grouped: 'hunk' | 'file' | 'files';
        /** Which tests each reversion ran: those of the test files the change added or changed, or the whole command. */
        scope?: 'changed tests' | 'all tests';
      }
    >
  | Ev<'file_changed', { path: string }>
  | Ev<'todo', { todos: TodoItem[] }>
  | Ev<
      'compaction',
      { kind: 'microcompact' | 'notes' | 'summary' | 'clear'; beforeTokens: number; afterTokens: number; ok: boolean; detail?: string }
    >
  | Ev<'retry', { turn: number; reason: string; attempt: number }>
  | Ev<'notice', { message: string }>
  /** The checks the repository has besides the test command (detect/repo-checks.ts): evidence.notRun lists those not run. */
  | Ev<'repo_checks', { checks: Array<{ kind: string; command: string; source: string }> }>
  /** The second look after the gates passed (review.enabled): its findings, usage and, with block_on: high, its gate. */
  | Ev<'second_look', { look: SecondLook }>
  /** A sub-agent (the Task tool) ended: its requests are the run's too; its tokens and cost count in the evidence. */
  | Ev<
      'subagent',
      {
        id: string;
        agentType: string;
        description: string;
        status: string;
        reason: string;
        turns: number;
        usage: Usage;
        costUsd: number;
        /** Its own transcript in the run folder (`subagents/<id>.jsonl`), when the run keeps one. */
        transcript?: string;
      }
    >
  | Ev<'error', { message: string; kind: string }>
  | Ev<'run_end', { verdict: Verdict; reason: string }>;

/** Distributive Omit so each member keeps its own fields. */
export type RunEventInput = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'ts'> : never) : never;

export function stamp(ev: RunEventInput, now: Date = new Date()): RunEvent {
  return { ...ev, ts: now.toISOString() } as RunEvent;
}

/**
 * A buffer that collaborators (verifier, hooks, tools) push events into and the loop drains and
 * yields, so every event reaches the transcript in order through one stream.
 */
export class EventQueue {
  private items: RunEvent[] = [];
  constructor(private readonly now: () => Date = () => new Date()) {}

  push = (ev: RunEventInput): void => {
    this.items.push(stamp(ev, this.now()));
  };

  drain(): RunEvent[] {
    const out = this.items;
    this.items = [];
    return out;
  }
}
