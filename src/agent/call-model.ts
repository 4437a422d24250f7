import type { Message, ModelResponse } from '../model/model-client.js';
import { ModelError } from '../model/model-client.js';
import { BudgetStop } from './budget-model.js';
import { withModelSettings } from '../model/model-settings.js';
import type { RunEvent } from './events.js';
import type { RunResult } from './loop.js';
import { endRun, recordCompaction, stopReason, type LoopRun } from './loop-run.js';
import { LIMITS, backoffMs } from './recovery.js';

/** A response; or the context was compacted after prompt-too-long (send again); or the run ends. */
export type ModelCall = { response: ModelResponse } | { compacted: true } | { end: RunResult };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One model request with the recovery the SDK cannot do: a stream that broke is retried (bounded, with
 * backoff); prompt-too-long compacts hard and asks for a new request (bounded per run); cancel and any
 * other model error end the run.
 */
export async function* callModel(run: LoopRun, sent: Message[]): AsyncGenerator<RunEvent, ModelCall> {
  const { deps, events, signal } = run;
  for (let brokenStreams = 0; ;) {
    try {
      // Thinking and effort (config); thinking blocks already in `sent` go back unchanged, signatures included.
      const request = withModelSettings(
        { model: deps.modelId, system: run.system, tools: run.tools, messages: sent, maxTokens: deps.maxTokens ?? 16000, signal },
        deps.modelSettings,
      );
      return { response: await run.model.send(request) };
    } catch (e) {
      // The run's budget cannot pay for this request: the conversation ends here, nothing was sent.
      if (e instanceof BudgetStop) {
        // Not sent, so not a request: the turn it would have been is not counted.
        run.turns--;
        deps.spend?.addTurn(-1);
        return { end: endRun(run, 'aborted', e.message) };
      }
      const err = e instanceof ModelError ? e : new ModelError(signal.aborted ? 'aborted' : 'fatal', (e as Error).message);
      if (err.kind === 'stream_broken' && brokenStreams < LIMITS.brokenStreams && !signal.aborted) {
        brokenStreams++;
        events.push({ type: 'retry', turn: run.turns, reason: `stream broke: ${err.message}`, attempt: brokenStreams });
        yield* events.drain();
        await sleep(backoffMs(brokenStreams, deps.retryBaseMs));
        continue;
      }
      if (err.kind === 'prompt_too_long') return yield* compactAfterTooLong(run, err.message);
      if (err.kind === 'aborted' || signal.aborted) return { end: endRun(run, 'aborted', stopReason(run) ?? 'cancelled') };
      events.push({ type: 'error', kind: err.kind, message: err.message });
      yield* events.drain();
      return { end: endRun(run, 'aborted', `model API unusable: ${err.message}`) };
    }
  }
}

async function* compactAfterTooLong(run: LoopRun, message: string): AsyncGenerator<RunEvent, ModelCall> {
  run.promptTooLong++;
  run.events.push({ type: 'error', kind: 'prompt_too_long', message });
  if (run.promptTooLong > LIMITS.promptTooLong) {
    yield* run.events.drain();
    return { end: endRun(run, 'aborted', `the prompt stayed too long for the model after ${LIMITS.promptTooLong} compactions`) };
  }
  const stop = recordCompaction(run, await run.deps.context.forceCompact(run.messages, run.memory, run.model));
  yield* run.events.drain();
  return stop ? { end: stop } : { compacted: true };
}
