import type { Logger } from 'pino';
import type { RepoConfig } from '../../config/repo-config.js';
import { logger as moduleLogger } from '../../log.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import { runCommandHook } from './command-hook.js';
import { matchesTool } from './matcher.js';
import type { HookEventName, HookOutcome, HookPayload, HookRunner } from './types.js';

/**
 * The repository's command hooks (`hooks:` in .github/proofpr.yml, CONTRACT §8). For an event, every
 * entry whose matcher selects the tool runs in order, each through the exec port (scrubbed env,
 * sandbox); every one's outcome is returned, a block does not stop the later ones.
 */
export function createHookRunner(opts: { config: RepoConfig['hooks']; exec: ExecPort; root: string; logger?: Logger }): HookRunner {
  const log = opts.logger ?? moduleLogger('hooks');
  return {
    async run(event: HookEventName, payload: HookPayload): Promise<HookOutcome[]> {
      const out: HookOutcome[] = [];
      for (const [i, hook] of (opts.config[event] ?? []).entries()) {
        let selected: boolean;
        try {
          selected = matchesTool(hook.matcher, payload.tool_name);
        } catch (e) {
          out.push({ kind: 'error', hook: hook.command, message: `hooks.${event}[${i}].matcher is not a valid regular expression: ${(e as Error).message}` });
          continue;
        }
        if (!selected) continue;
        const started = Date.now();
        const outcome = await runCommandHook(hook, event, payload, { exec: opts.exec, root: opts.root });
        log.debug({ event, hook: hook.command, outcome: outcome.kind, ms: Date.now() - started }, 'hook ran');
        out.push(outcome);
      }
      return out;
    },
  };
}
