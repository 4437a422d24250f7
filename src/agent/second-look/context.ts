/**
 * The second look's context: a fresh one (nothing of the first agent's conversation), the reviewer's
 * system prompt and the read-only tools, cache breakpoints as the main context has them. Its budget is
 * small, so it never compacts: a context that outgrows the window ends it, and it reports that.
 */
import type { Message } from '../../model/model-client.js';
import { withRollingBreakpoints, withToolsBreakpoint } from '../context/cache.js';
import { estimateTokens } from '../context/estimate.js';
import type { ContextManager } from '../context/types.js';
import { SECOND_LOOK_SYSTEM_PROMPT } from './prompt.js';

export function secondLookContext(): ContextManager {
  return {
    system: () => [{ type: 'text', text: SECOND_LOOK_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
    tools: (schemas) => withToolsBreakpoint(schemas),
    prepare: (messages: Message[]) => withRollingBreakpoints(messages),
    maybeCompact: async () => undefined,
    forceCompact: async (messages) => ({
      messages,
      kind: 'clear',
      beforeTokens: estimateTokens(messages),
      afterTokens: estimateTokens(messages),
      ok: false,
      detail: 'the second look does not compact',
    }),
    estimateTokens: (messages) => estimateTokens(messages),
  };
}
