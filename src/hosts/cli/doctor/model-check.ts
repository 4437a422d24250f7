/**
 * The API key and the model id, with one cheap request: count_tokens for a one-word message (no tokens
 * are generated, nothing is billed as output) against ANTHROPIC_BASE_URL or the public API. The key is
 * sent only in the request header and never printed.
 */
import type { CheckResult } from './check.js';

export interface ModelCheckInput {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  /** Where the model id came from, for the fix ("model: in .github/proofpr.yml", "PROOFPR_MODEL"). */
  modelFrom: string;
  timeoutMs?: number;
}

export async function checkModel(input: ModelCheckInput): Promise<CheckResult> {
  const name = 'api key and model';
  if (!input.apiKey)
    return {
      name,
      status: 'fail',
      detail: 'ANTHROPIC_API_KEY is not set',
      fix: 'export ANTHROPIC_API_KEY=… (runs, serve and worker need it; demo does not)',
    };
  const base = (input.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': input.apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: input.model, messages: [{ role: 'user', content: 'ping' }] }),
      signal: AbortSignal.timeout(input.timeoutMs ?? 15_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    return {
      name,
      status: 'fail',
      detail: `cannot reach ${base} (${cause})`,
      fix: input.baseUrl ? 'check ANTHROPIC_BASE_URL' : 'check the network or set ANTHROPIC_BASE_URL to your proxy',
    };
  }
  const body = (await res.json().catch(() => ({}))) as { input_tokens?: number; error?: { type?: string; message?: string } };
  const message = body.error?.message ? ` (${body.error.message})` : '';
  if (res.ok)
    return { name, status: 'ok', detail: `the key works and model ${input.model} answers (${input.modelFrom}; count_tokens at ${base})` };
  if (res.status === 401 || res.status === 403)
    return {
      name,
      status: 'fail',
      detail: `the key was refused: HTTP ${res.status}${message}`,
      fix: 'set ANTHROPIC_API_KEY to a valid key',
    };
  if (res.status === 404 || body.error?.type === 'not_found_error')
    return {
      name,
      status: 'fail',
      detail: `model ${input.model} is not known: HTTP ${res.status}${message}`,
      fix: `set a valid model id (${input.modelFrom})`,
    };
  if (res.status === 400 && /model/i.test(message))
    return { name, status: 'fail', detail: `model ${input.model} was refused${message}`, fix: `set a valid model id (${input.modelFrom})` };
  return { name, status: 'warn', detail: `HTTP ${res.status}${message}: the key and model could not be confirmed` };
}
