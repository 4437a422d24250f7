/** Seams between the loop and context engineering (issue 6). */
import type { Message, ModelClient, TextBlock, ToolSchema } from '../../model/model-client.js';
import type { GateResult, TodoItem } from '../events.js';

/** Facts that change during a run: they go in a reminder on the latest user turn, never in the cached prefix. */
export interface DynamicFacts {
  date: string;
  branch: string;
  turn: number;
  maxTurns: number;
  costUsd: number;
  maxCostUsd: number;
  minutesLeft: number;
  /** Latest gate evaluation, if any. */
  gates?: GateResult[];
  todos?: TodoItem[];
}

export interface CompactionState {
  todos: TodoItem[];
  filesEdited: string[];
  gates: GateResult[];
  /** Paths (run folder tool-output/…) of logs behind failing checks, kept across compaction. */
  failingLogs: string[];
  /** The ledger of commands run (in order), from the exec effects of the tool results. */
  checks?: CheckRecord[];
  /** Sequence number of the last tool result that changed a file (see CheckRecord.seq). */
  lastEditSeq?: number;
  /** Per edited path (worktree-relative), the seq of the tool result that last changed it: "edits since the last passing test run". */
  edits?: Record<string, number>;
  /** Tool results noted so far (the clock of `seq`). */
  seq?: number;
}

/** One command the agent ran, as the harness recorded it (not as the model remembers it). */
export interface CheckRecord {
  command: string;
  exitCode: number | null;
  timedOut?: boolean;
  /** The full output on disk, when the result was saved to tool-output/. */
  outputPath?: string;
  /** When it ran, on the CompactionState.seq clock. */
  seq: number;
}

export interface CompactionResult {
  messages: Message[];
  /** microcompact: old tool results cleared; notes: rebuilt from the harness's session notes; summary: the model's hand-off. */
  kind: 'microcompact' | 'notes' | 'summary' | 'clear';
  beforeTokens: number;
  afterTokens: number;
  ok: boolean;
  detail?: string;
}

export interface ContextManager {
  /** The byte-stable system prompt (with cache breakpoints). Built once per run. */
  system(): TextBlock[];
  /** Tool schemas with a cache breakpoint on the last one. */
  tools(schemas: ToolSchema[]): ToolSchema[];
  /** Messages as sent: a rolling cache breakpoint on the latest turn and the reminder appended. Does not mutate. */
  prepare(messages: Message[], facts: DynamicFacts): Message[];
  /** Called before each request: compacts when the estimate passes the threshold. undefined = nothing done. */
  maybeCompact(messages: Message[], state: CompactionState, model: ModelClient): Promise<CompactionResult | undefined>;
  /** After a prompt-too-long error: compact harder. Throws nothing; ok:false when it could not shrink. */
  forceCompact(messages: Message[], state: CompactionState, model: ModelClient): Promise<CompactionResult>;
  estimateTokens(messages: Message[]): number;
}

/** One repository instruction file (AGENTS.md / CLAUDE.md) as it goes into the system prompt. */
export interface InstructionFile {
  /** Path relative to the worktree root, forward slashes (e.g. "AGENTS.md", "src/api/CLAUDE.md"). */
  path: string;
  content: string;
  /** Size of the file on disk. */
  bytes: number;
  /** True when content was cut to fit the size cap. */
  truncated: boolean;
}

/** A skill's index entry: only name + description travel in the prompt; the Skill tool loads the body. */
export interface SkillInfo {
  name: string;
  description: string;
  /** Path of SKILL.md relative to the worktree root. */
  path: string;
}

/** The task as the prompt sees it (mirrors the host's task spec; the agent core does not import usecases). */
export interface ContextTask {
  kind: string;
  title: string;
  /** Untrusted text (issue body, comments): wrapped as data in the prompt. */
  body: string;
  /** Free-text instructions from the trigger comment, also untrusted. */
  instructions?: string;
  issue?: number;
}
