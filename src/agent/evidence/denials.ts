/** CONTRACT §9: every tool call refused by the permission policy or by a PreToolUse hook. */
import type { Denial, RunEvent } from '../events.js';
import { describeInput } from '../../tools/describe-input.js';

/** errorKind of a tool_result whose call a PreToolUse hook blocked. */
export const HOOK_BLOCKED = 'hook_blocked';

/**
 * Permission events with behavior 'deny', plus tool results with errorKind 'hook_blocked' (the input
 * comes from the matching tool_call; the rule names the hook that blocked it when its event is there).
 */
export function collectDenials(events: readonly RunEvent[]): Denial[] {
  const calls = new Map<string, { name: string; input: unknown }>();
  const out: Denial[] = [];
  let lastPreToolBlock: { name: string; message?: string } | undefined;
  for (const ev of events) {
    switch (ev.type) {
      case 'tool_call':
        calls.set(ev.id, { name: ev.name, input: ev.input });
        break;
      case 'permission':
        if (ev.behavior === 'deny') out.push({ tool: ev.tool, input: ev.input, rule: ev.rule, reason: ev.reason });
        break;
      case 'hook':
        if (ev.event === 'PreToolUse' && ev.outcome === 'block') lastPreToolBlock = { name: ev.name, message: ev.message };
        break;
      case 'tool_result':
        if (ev.errorKind === HOOK_BLOCKED) {
          const call = calls.get(ev.id);
          out.push({
            tool: ev.name,
            input: call ? describeInput(call.input) : '',
            rule: `PreToolUse hook${lastPreToolBlock ? ` ${lastPreToolBlock.name}` : ''}`,
            reason: lastPreToolBlock?.message ?? ev.preview,
          });
        }
        lastPreToolBlock = undefined;
        break;
      default:
        break;
    }
  }
  return out;
}
