import type { RunEventInput } from '../events.js';
import type { HookEventName, HookOutcome } from './types.js';

/** The run event for one hook's outcome: a block, an error and added context are recorded; continue is not. */
export function hookEvent(event: HookEventName, o: HookOutcome): RunEventInput | undefined {
  switch (o.kind) {
    case 'block':
      return { type: 'hook', event, name: o.hook, outcome: 'block', message: o.reason };
    case 'error':
      return { type: 'hook', event, name: o.hook, outcome: 'error', message: o.message };
    case 'context':
      return { type: 'hook', event, name: o.hook, outcome: 'context', message: o.text };
    case 'continue':
      return undefined;
  }
}
