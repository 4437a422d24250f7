/** Hook events are a closed set (seed 001 §8). */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'PreCompact',
  'PostCompact',
  'SubagentStop',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** What a command hook gets as JSON on stdin. */
export interface HookPayload {
  hook_event_name: HookEventName;
  cwd: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_response?: { output: string; is_error: boolean };
  /** Stop: how many times the Stop gates already sent the model back. */
  stop_blocks?: number;
  /** UserPromptSubmit: the prompt the run starts with. */
  prompt?: string;
  /** PostCompact: what the compaction did. */
  compaction?: { kind: string; before_tokens: number; after_tokens: number };
  /** SubagentStop: the sub-agent's type and how it ended. */
  subagent?: { type: string; status: string };
  /** SessionEnd: how the run ended and why. */
  status?: string;
  reason?: string;
}

export type HookOutcome =
  | { kind: 'continue' }
  | { kind: 'block'; hook: string; reason: string }
  | { kind: 'context'; hook: string; text: string }
  | { kind: 'error'; hook: string; message: string };

export interface HookRunner {
  /** Runs every hook matching the event (and tool name), in order; returns each one's outcome. */
  run(event: HookEventName, payload: HookPayload): Promise<HookOutcome[]>;
}
