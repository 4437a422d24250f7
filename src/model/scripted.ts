/**
 * A fake ModelClient driven by a script, for tests and the offline demo. Each request consumes one step:
 * a response (content, optional stopReason / usage) or an error thrown as ModelError. Every request is kept,
 * deep-copied, in `.requests` so a test can assert on exactly what the model saw.
 */
import {
  ModelError,
  type AssistantBlock,
  type ModelClient,
  type ModelErrorKind,
  type ModelRequest,
  type ModelResponse,
  type StopReason,
  type StreamDelta,
  type TextBlock,
  type ThinkingBlock,
  type ToolUseBlock,
  type Usage,
} from './model-client.js';

export interface ScriptResponse {
  content: AssistantBlock[];
  /** Default: 'tool_use' when content has a tool_use block, else 'end_turn'. */
  stopReason?: StopReason;
  /** Missing fields default to an estimate from the request and response size (4 characters a token). */
  usage?: Partial<Usage>;
  /** Default: the requested model. */
  model?: string;
}

export interface ScriptError {
  error: ModelErrorKind;
  message?: string;
  status?: number;
}

export type ScriptStep = ScriptResponse | ScriptError;

/** turn counts requests from 1. */
export type ScriptFn = (request: ModelRequest, turn: number) => ScriptStep;

export interface ScriptedModel extends ModelClient {
  /** Every request received, deep-copied (without its AbortSignal). */
  readonly requests: ModelRequest[];
  /** Steps not consumed yet (arrays only; Infinity for a function script). */
  remaining(): number;
}

export function createScriptedModel(script: ScriptStep[] | ScriptFn): ScriptedModel {
  const requests: ModelRequest[] = [];

  async function send(request: ModelRequest, onDelta?: (delta: StreamDelta) => void): Promise<ModelResponse> {
    if (request.signal?.aborted) throw new ModelError('aborted', 'model request aborted by the caller');
    const { signal: _signal, ...rest } = request;
    requests.push(structuredClone(rest));
    const turn = requests.length;
    const step = typeof script === 'function' ? script(request, turn) : script[turn - 1];
    if (step === undefined) {
      throw new Error(`scripted model: no step for turn ${turn} (the script has ${Array.isArray(script) ? script.length : 0} steps)`);
    }
    if ('error' in step) throw new ModelError(step.error, step.message ?? `scripted ${step.error} error`, step.status);
    const content = structuredClone(step.content);
    for (const block of content) {
      if (block.type === 'text') onDelta?.({ type: 'text', text: block.text });
      else if (block.type === 'tool_use') onDelta?.({ type: 'tool_use_start', name: block.name, id: block.id });
    }
    const stopReason = step.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    return { content, stopReason, usage: { ...estimateUsage(request, content), ...step.usage }, model: step.model ?? request.model };
  }

  const remaining = (): number => (Array.isArray(script) ? Math.max(0, script.length - requests.length) : Infinity);
  return { send, requests, remaining };
}

export function text(s: string): TextBlock {
  return { type: 'text', text: s };
}

let toolUseCounter = 0;

/** A thinking block as the API returns it (the signature is opaque; it must come back unchanged). */
export function thinking(s: string, signature = `sig_${Buffer.from(s).toString('base64').slice(0, 16)}`): ThinkingBlock {
  return { type: 'thinking', thinking: s, signature };
}

export function toolUse(name: string, input: unknown, id?: string): ToolUseBlock {
  toolUseCounter += 1;
  return { type: 'tool_use', id: id ?? `toolu_scripted_${String(toolUseCounter).padStart(4, '0')}`, name, input };
}

function estimateUsage(request: ModelRequest, content: AssistantBlock[]): Usage {
  const inChars = JSON.stringify([request.system, request.tools, request.messages]).length;
  const outChars = JSON.stringify(content).length;
  const thinkingChars = content.reduce((n, b) => n + (b.type === 'thinking' ? b.thinking.length : 0), 0);
  return {
    inputTokens: Math.ceil(inChars / 4),
    outputTokens: Math.max(1, Math.ceil(outChars / 4)),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    ...(thinkingChars > 0 ? { thinkingTokens: Math.ceil(thinkingChars / 4) } : {}),
  };
}
