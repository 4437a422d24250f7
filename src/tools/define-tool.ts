import type { z } from 'zod';
import type { Logger } from 'pino';
import type { ExecPort } from '../workspace/exec-port.js';
import type { FileState } from './file-state.js';

/** What a tool hands back. `forModel` is the tool_result text; `forHuman` a short line for displays. */
export interface ToolResult {
  forModel: string;
  forHuman?: string;
  isError: boolean;
  /** e.g. 'invalid_input', 'unknown_tool', 'denied', 'hook_blocked', 'not_read', 'stale', 'not_found', 'exec_failed', 'timeout', 'internal' */
  errorKind?: string;
  /** Structured facts for the harness (exit code, file path, todos...); never shown to the model. */
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
  /** Written for the model; lives in a .md file beside the tool. */
  description: string;
  input: S;
  /** Read-only tools of one turn may run concurrently. */
  readOnly: boolean;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}
