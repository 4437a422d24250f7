import type { z } from 'zod';
import type { Logger } from 'pino';
import type { ExecPort } from '../workspace/exec-port.js';
import type { FileState } from './file-state.js';
import type { Usage } from '../model/model-client.js';

/** What a call is, for the loop, the policy and the verifier: they ask the tool, never match its name. */
export type ToolKind = 'read' | 'search' | 'edit' | 'execute' | 'think';

/** Why a call failed. Recoverable errors go back to the model as is_error results; a fatal one ends the run. */
export const TOOL_ERROR_KINDS = {
  invalid_input: 'recoverable',
  unknown_tool: 'recoverable',
  denied: 'recoverable',
  hook_blocked: 'recoverable',
  not_read: 'recoverable',
  stale: 'recoverable',
  not_found: 'recoverable',
  is_directory: 'recoverable',
  too_large: 'recoverable',
  binary: 'recoverable',
  no_match: 'recoverable',
  ambiguous: 'recoverable',
  no_op: 'recoverable',
  invalid_regex: 'recoverable',
  write_failed: 'recoverable',
  /** A named pipe, socket or device: never opened (it could block the run). */
  special_file: 'recoverable',
  /** A path git refuses to commit (a `.git` look-alike component, …): never written. */
  git_path: 'recoverable',
  exec_failed: 'recoverable',
  exit_code: 'recoverable',
  timeout: 'recoverable',
  internal: 'recoverable',
  /** The run was cancelled or ran out of time while the call ran. */
  cancelled: 'fatal',
} as const satisfies Record<string, 'fatal' | 'recoverable'>;
export type ToolErrorKind = keyof typeof TOOL_ERROR_KINDS;

export function isFatal(kind: ToolErrorKind | undefined): boolean {
  return kind !== undefined && TOOL_ERROR_KINDS[kind] === 'fatal';
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A finished process: what the verifier needs to judge a test run. */
export interface ExecRecord {
  command: string;
  exitCode: number | null;
  startedAt: string;
  endedAt: string;
  timedOut: boolean;
  /** The full output on disk (set by the registry when the output was too long for the model). */
  outputPath?: string;
}

/** What a call did, typed: the harness reads these, never the text. */
export type ToolEffect =
  | { type: 'file_changed'; /** worktree-relative, POSIX separators */ path: string }
  | { type: 'todos'; todos: TodoItem[] }
  | ({ type: 'exec' } & ExecRecord)
  /** Model requests the call made itself (a sub-agent): they count towards the run's cost budget. */
  | { type: 'model_usage'; usage: Usage; costUsd: number; turns: number };

/** A path a call touches, as the model gave it (the policy resolves and jails it). */
export interface ToolLocation {
  /** Undefined = the worktree root. */
  path: string | undefined;
  /** 'dir' for a folder a search walks (a file is accepted there too). */
  type: 'file' | 'dir';
}

/** What a call would touch, asked before it runs (the permission policy's view of it). */
export interface ToolAccess {
  paths: ToolLocation[];
  /** Glob patterns the call expands, by input field: they must stay inside the worktree. */
  patterns: { field: string; pattern: string }[];
  /** `execute` tools: the shell command. */
  command?: string;
}

/** A call that touches nothing (think tools, the Skill tool). */
export const NO_ACCESS: ToolAccess = Object.freeze({ paths: [], patterns: [] }) as ToolAccess;

/** What a tool hands back. `forModel` is the tool_result text; `forHuman` a short line for displays. */
export interface ToolResult {
  forModel: string;
  forHuman?: string;
  isError: boolean;
  errorKind?: ToolErrorKind;
  /** What the call did (a changed file, the todo list, the process it ran); never shown to the model. */
  effects?: ToolEffect[];
  /** Descriptive facts for the transcript (line ranges, counts); nothing in the harness reads them. */
  meta?: Record<string, unknown>;
  /** Set by the registry when the full output was saved to `<runDir>/tool-output/<callId>.txt`. */
  outputPath?: string;
}

export interface ToolContext {
  /** Absolute, realpath'd worktree root. Every path a tool touches must resolve inside it. */
  root: string;
  /** Run folder (tool-output/ lives here). */
  runDir: string;
  callId: string;
  fileState: FileState;
  exec: ExecPort;
  signal: AbortSignal;
  logger: Logger;
  /**
   * Folders outside `root` that Read and Grep (only those) may also read, e.g. another run's files.
   * `<runDir>/tool-output` is always readable by them; it need not be listed.
   */
  extraReadRoots?: string[];
  /**
   * True for a worktree-relative path (POSIX separators) that the config's Read(...) deny rules cover:
   * Grep and Glob leave such files out of their results and Read refuses them. Built with
   * `readDenyPredicate` from src/agent/permissions/read-deny.ts. Absent = nothing denied.
   */
  readDeny?: (relPath: string) => boolean;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  kind: ToolKind;
  /** Written for the model; lives in a .md file beside the tool. */
  description: string;
  input: S;
  /**
   * The input's JSON schema as the model sees it, when it comes from elsewhere (an MCP server's tool):
   * sent as is instead of the one generated from `input` (then an open object that lets the server validate).
   */
  inputSchema?: Record<string, unknown>;
  /** Deferred: not in the tool list until the model loads it with ToolSearch (MCP server tools). */
  deferred?: boolean;
  /**
   * An `execute` tool without a command the policy can read (an MCP server's tool) declares that it
   * changes nothing (MCP `annotations.readOnlyHint`): plan mode may run it when a rule allows it.
   */
  readOnly?: boolean;
  /** What a call with this (validated) input touches; default nothing. */
  access?(input: z.infer<S>): ToolAccess;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Calls of these kinds have no effect outside the model's view: one turn's may run concurrently. */
export function runsConcurrently(kind: ToolKind): boolean {
  return kind === 'read' || kind === 'search';
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

/** The first effect of a type in a result. */
export function effectOf<T extends ToolEffect['type']>(result: ToolResult, type: T): Extract<ToolEffect, { type: T }> | undefined {
  return result.effects?.find((e): e is Extract<ToolEffect, { type: T }> => e.type === type);
}
