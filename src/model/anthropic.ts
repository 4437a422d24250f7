/**
 * The ModelClient on the Anthropic SDK (the Anthropic API, or Bedrock / Vertex through the SDK's own clients
 * for them: provider.ts): one streamed Messages request per turn, assembled into the final
 * assistant message. Retries and the request timeout are the SDK's; this file adds an idle watchdog for a
 * stream that stalls after it started, and maps failures to ModelError kinds (see to-model-error.ts).
 */
import type { ModelClient, ModelRequest, ModelResponse, StreamDelta } from './model-client.js';
import { ModelError } from './model-client.js';
import { logger as moduleLogger } from '../log.js';
import { assembleMessage } from './assemble-message.js';
import { createMessagesClient, DEFAULT_STREAM_IDLE_MS, type AnthropicClientOptions } from './sdk-client.js';
import { toMessageParams } from './to-message-params.js';
import { toModelError } from './to-model-error.js';

export type { AnthropicClientOptions } from './sdk-client.js';

export function createAnthropicClient(opts: AnthropicClientOptions): ModelClient {
  const sdkFor = createMessagesClient(opts);
  const log = opts.logger ?? moduleLogger('model');
  const idleMs = opts.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;

  async function send(request: ModelRequest, onDelta?: (delta: StreamDelta) => void): Promise<ModelResponse> {
    const caller = request.signal;
    if (caller?.aborted) throw new ModelError('aborted', 'model request aborted by the caller');
    const controller = new AbortController();
    const onCallerAbort = (): void => controller.abort();
    caller?.addEventListener('abort', onCallerAbort, { once: true });
    let started = false;
    let idleFired = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, idleMs);
    };
    const t0 = Date.now();
    log.debug({ model: request.model, messages: request.messages.length, tools: request.tools.length }, 'model request');
    try {
      const sdk = await sdkFor();
      const { data: stream, response } = await sdk.messages.create(toMessageParams(request), { signal: controller.signal }).withResponse();
      started = true;
      // Bedrock names its request id x-amzn-requestid; Vertex passes the API's request-id through.
      const requestId = response.headers.get('request-id') ?? response.headers.get('x-amzn-requestid') ?? undefined;
      const assembler = assembleMessage(log, onDelta);
      arm();
      for await (const event of stream) {
        arm();
        assembler.push(event);
      }
      // The SDK ends the iteration quietly when the request is aborted; an abort is never a finished message.
      if (controller.signal.aborted) throw new ModelError('stream_broken', 'stream was aborted');
      const msg = assembler.finish();
      const result: ModelResponse = { ...msg, model: msg.model || request.model, ...(requestId ? { requestId } : {}) };
      log.debug({ requestId, stopReason: result.stopReason, usage: result.usage, ms: Date.now() - t0 }, 'model response');
      return result;
    } catch (err) {
      const callerAborted = caller?.aborted ?? false;
      const mapped = toModelError(err, { started, callerAborted, ...(idleFired && !callerAborted ? { idleMs } : {}) });
      const level = mapped.kind === 'aborted' ? 'debug' : 'warn';
      log[level]({ kind: mapped.kind, status: mapped.status, ms: Date.now() - t0 }, mapped.message);
      throw mapped;
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    }
  }

  return { send };
}

/** The same client by its general name: `provider` picks the Anthropic API, Bedrock or Vertex. */
export const createModelClient = createAnthropicClient;
