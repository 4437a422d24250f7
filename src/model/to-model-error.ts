/**
 * Maps whatever the SDK threw into a ModelError whose kind tells the loop what to do.
 * By the time an error reaches here the SDK has already spent its retries on anything retryable.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError } from './model-client.js';

export interface ErrorContext {
  /** The HTTP response (200, event stream) had arrived: a failure now is a broken stream. */
  started: boolean;
  /** The caller's AbortSignal fired. */
  callerAborted: boolean;
  /** Our idle watchdog aborted the stream (no event for streamIdleMs). */
  idleMs?: number;
}

const PROMPT_TOO_LONG = [
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /exceeds? (the )?(model'?s? )?context (window|limit|length)/i,
  /too many (input )?tokens/i,
  /request (body )?(is )?too large|request_too_large|exceeds the maximum (allowed )?size/i,
];

export function isPromptTooLongMessage(message: string): boolean {
  return PROMPT_TOO_LONG.some((re) => re.test(message));
}

export function toModelError(err: unknown, ctx: ErrorContext): ModelError {
  if (ctx.callerAborted) return new ModelError('aborted', 'model request aborted by the caller');
  if (ctx.idleMs !== undefined) {
    return new ModelError(
      'stream_broken',
      `stream sent no event for ${ctx.idleMs >= 1000 ? `${Math.round(ctx.idleMs / 1000)}s` : `${ctx.idleMs}ms`}; gave up on it`,
    );
  }
  if (err instanceof ModelError) return err;
  if (err instanceof APIUserAbortError) {
    return new ModelError(ctx.started ? 'stream_broken' : 'fatal', `model request was aborted: ${err.message}`);
  }
  if (err instanceof APIConnectionError) {
    return ctx.started
      ? new ModelError('stream_broken', `stream broke: ${describeCause(err)}`)
      : new ModelError('fatal', `could not reach the Anthropic API (retries spent): ${describeCause(err)}`);
  }
  if (err instanceof APIError) {
    const apiMessage = err.apiMessage ?? err.message;
    const where = err.requestID ? ` (request ${err.requestID})` : '';
    // 413: the request body is too big (many large tool results); compacting the conversation fixes it too.
    if (err.status === 413 || ((err.status === 400 || err.status === undefined) && isPromptTooLongMessage(apiMessage))) {
      return new ModelError('prompt_too_long', `prompt is too long for the model: ${apiMessage}${where}`, err.status);
    }
    if (err.status === undefined) {
      // An `event: error` inside a 200 stream (overloaded_error, api_error, …).
      const type = err.type ? `${err.type}: ` : '';
      return new ModelError('stream_broken', `stream broke with an error event: ${type}${apiMessage}${where}`);
    }
    return new ModelError('fatal', `Anthropic API ${err.status}: ${apiMessage}${where}${hint(err.status)}`, err.status);
  }
  if (ctx.started) return new ModelError('stream_broken', `stream broke: ${describeCause(err)}`);
  return new ModelError('fatal', `model request failed: ${describeCause(err)}`);
}

function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const inner = cause instanceof Error && cause.message && cause.message !== err.message ? ` (${cause.message})` : '';
  return `${err.message}${inner}`;
}

function hint(status: number): string {
  if (status === 401) return ' — check ANTHROPIC_API_KEY';
  if (status === 403) return ' — the API key is not allowed to use this model or endpoint';
  if (status === 404) return ' — check the model id (PROOFPR_MODEL / `model:` in .github/proofpr.yml) and ANTHROPIC_BASE_URL';
  if (status === 429 || status >= 500) return ' — retries spent; try again later';
  return '';
}
