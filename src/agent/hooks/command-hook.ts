import { isAbsolute, resolve } from 'node:path';
import type { ExecPort, ExecResult } from '../../workspace/exec-port.js';
import type { HookEventName, HookOutcome, HookPayload } from './types.js';

export interface CommandHook {
  command: string;
  timeout_sec: number;
}

/** Events whose plain-text stdout is context for the model (the others need JSON `additionalContext`). */
const TEXT_CONTEXT: ReadonlySet<HookEventName> = new Set(['SessionStart', 'UserPromptSubmit']);

/**
 * Runs one command hook through the exec port: the event as JSON on stdin, `PROOFPR_FILE` (absolute)
 * when the tool input names a file. Exit 0 continues (stdout may add context), exit 2 blocks with
 * stderr as the reason, anything else (or a timeout) is a non-blocking hook error.
 */
export async function runCommandHook(
  hook: CommandHook,
  event: HookEventName,
  payload: HookPayload,
  opts: { exec: ExecPort; root: string },
): Promise<HookOutcome> {
  const name = hook.command;
  const body: HookPayload = { ...payload, hook_event_name: event, cwd: payload.cwd || opts.root };
  const extraEnv: Record<string, string> = {};
  const file = filePathOf(payload.tool_input);
  if (file !== undefined) extraEnv.PROOFPR_FILE = isAbsolute(file) ? file : resolve(opts.root, file);
  let r: ExecResult;
  try {
    r = await opts.exec({
      command: hook.command,
      cwd: opts.root,
      timeoutMs: hook.timeout_sec * 1000,
      stdin: JSON.stringify(body),
      extraEnv,
    });
  } catch (e) {
    return { kind: 'error', hook: name, message: `could not run the hook: ${(e as Error).message}` };
  }
  if (r.timedOut)
    return { kind: 'error', hook: name, message: `timed out after ${hook.timeout_sec}s (raise timeout_sec or make the hook faster)` };
  if (r.cancelled) return { kind: 'error', hook: name, message: 'cancelled' };
  if (r.exitCode === 2) {
    const reason = r.stderr.trim() || `the hook exited 2 without a reason on stderr`;
    return { kind: 'block', hook: name, reason };
  }
  if (r.exitCode !== 0) {
    const tail = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(-5).join('\n');
    return { kind: 'error', hook: name, message: `exit code ${r.exitCode ?? 'none (killed)'}${tail ? `: ${tail}` : ''}` };
  }
  return fromStdout(name, event, r.stdout.trim());
}

function fromStdout(hook: string, event: HookEventName, out: string): HookOutcome {
  if (out === '') return { kind: 'continue' };
  if (out.startsWith('{')) {
    try {
      const j = JSON.parse(out) as Record<string, unknown>;
      if (j.decision === 'block')
        return { kind: 'block', hook, reason: typeof j.reason === 'string' && j.reason ? j.reason : 'blocked by the hook' };
      const specific = j.hookSpecificOutput as Record<string, unknown> | undefined;
      const ctx = j.additionalContext ?? specific?.additionalContext;
      if (typeof ctx === 'string' && ctx.trim()) return { kind: 'context', hook, text: ctx.trim() };
      return { kind: 'continue' };
    } catch {
      // not JSON: plain text below
    }
  }
  return TEXT_CONTEXT.has(event) ? { kind: 'context', hook, text: out } : { kind: 'continue' };
}

function filePathOf(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const p = (input as Record<string, unknown>).file_path;
  return typeof p === 'string' && p !== '' ? p : undefined;
}
