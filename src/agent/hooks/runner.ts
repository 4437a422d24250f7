import type { Logger } from 'pino';
import type { RunSettings } from '../settings.js';
import { logger as moduleLogger } from '../../log.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import { runCommandHook } from './command-hook.js';
import { matchesTool } from './matcher.js';
import type { RunEventInput } from '../events.js';
import { hookEvent } from './hook-event.js';
import type { HookEventName, HookOutcome, HookPayload, HookRunner } from './types.js';

/**
 * The repository's command hooks (`hooks:` in .github/proofpr.yml, CONTRACT §8). For an event, every
 * entry whose matcher selects the tool runs in order, each through the exec port (scrubbed env,
 * sandbox); every one's outcome is returned, a block does not stop the later ones. Each block, error and
 * added context is also recorded as a `hook` event through `onEvent` (the one place that maps outcomes to events).
 */
export function createHookRunner(opts: {
  config: RunSettings['hooks'];
  exec: ExecPort;
  root: string;
  logger?: Logger;
  onEvent?: (ev: RunEventInput) => void;
}): HookRunner {
  const log = opts.logger ?? moduleLogger('hooks');
  return {
    async run(event: HookEventName, payload: HookPayload): Promise<HookOutcome[]> {
      const out: HookOutcome[] = [];
      for (const [i, hook] of (opts.config[event] ?? []).entries()) {
        let selected: boolean;
        try {
          selected = matchesTool(hook.matcher, payload.tool_name);
        } catch (e) {
          const message = `hooks.${event}[${i}].matcher is not a valid regular expression: ${(e as Error).message}`;
          out.push(failClosed(hook, { kind: 'error', hook: hook.command, message }));
          continue;
        }
        if (!selected) continue;
        const started = Date.now();
        const outcome = failClosed(hook, await runCommandHook(hook, event, payload, { exec: opts.exec, root: opts.root }));
        log.debug({ event, hook: hook.command, outcome: outcome.kind, ms: Date.now() - started }, 'hook ran');
        out.push(outcome);
      }
      for (const o of out) {
        const ev = hookEvent(event, o);
        if (ev) opts.onEvent?.(ev);
      }
      return out;
    },
  };
}

/**
 * `on_failure: block`: a hook that could not run (not found, crashed, timed out, a bad matcher) blocks
 * instead of letting the action through, so a guard that never ran never passes.
 */
function failClosed(hook: { command: string; on_failure?: 'continue' | 'block' }, o: HookOutcome): HookOutcome {
  if (o.kind !== 'error' || hook.on_failure !== 'block') return o;
  return { kind: 'block', hook: o.hook, reason: `the hook could not run (on_failure: block): ${o.message}` };
}
