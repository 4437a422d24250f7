/**
 * The Action's inputs (CONTRACT §6), read from the INPUT_* variables the runner sets (name upper-cased,
 * spaces → `_`) and validated with zod. Every error names the input and says how to fix it.
 */
import { z } from 'zod';

export interface ActionInputs {
  anthropicApiKey: string;
  githubToken: string;
  trigger: string;
  prompt?: string;
  /** `verify`: on pull_request, `proofpr verify` of the PR and the check run `proofpr/verified` (no model, no key). */
  mode: 'auto' | 'sweep' | 'verify';
  config: string;
  model?: string;
  maxTurns?: number;
  maxCostUsd?: number;
  testCommand?: string;
}

/** A bad input: exit code 2, `input` names it. */
export class ActionInputError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(`input ${input}: ${message}`);
    this.name = 'ActionInputError';
  }
}

/** `INPUT_<NAME>` as the runner spells it. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const positive = (integer: boolean) =>
  optionalText.pipe(
    z
      .string()
      .regex(
        integer ? /^\d+$/ : /^\d+(\.\d+)?$/,
        integer ? 'expected a positive whole number, e.g. 40' : 'expected a positive number, e.g. 2.5',
      )
      .transform(Number)
      .refine((n) => n > 0, 'must be greater than 0')
      .optional(),
  );

const schema = z.object({
  anthropic_api_key: optionalText.pipe(
    z.string({ error: "is required: pass `anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}` in the step's with: block" }),
  ),
  github_token: optionalText.pipe(z.string({ error: 'is empty: leave it unset (default `${{ github.token }}`) or pass a token' })),
  trigger: optionalText.pipe(z.string().regex(/^\S+$/, 'expected one word such as /agent').default('/agent')),
  prompt: optionalText,
  mode: optionalText.pipe(z.enum(['auto', 'sweep', 'verify'], { error: 'expected auto, sweep or verify' }).default('auto')),
  config: optionalText.pipe(z.string().default('.github/proofpr.yml')),
  model: optionalText,
  max_turns: positive(true),
  max_cost_usd: positive(false),
  test_command: optionalText,
});

/** Parse the inputs from the environment; throws ActionInputError naming the first bad input. */
export function parseActionInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const raw: Record<string, string | undefined> = {};
  for (const name of Object.keys(schema.shape)) raw[name] = env[inputEnvName(name)];
  // With Bedrock or Vertex (PROOFPR_PROVIDER in the step's env) the credentials come from that cloud's
  // environment (OIDC through aws-actions/configure-aws-credentials or google-github-actions/auth), not a key.
  if (/^(bedrock|vertex)$/.test(env.PROOFPR_PROVIDER?.trim() ?? '') && !raw.anthropic_api_key?.trim()) raw.anthropic_api_key = 'unused';
  // `mode: verify` calls no model: no key is needed (a fork's pull_request workflow has no secrets), none is used.
  if (raw.mode?.trim() === 'verify') raw.anthropic_api_key = 'unused';
  const res = schema.safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0];
    const name = String(issue?.path[0] ?? 'inputs');
    const value = raw[name];
    const shown = value !== undefined && value.trim() !== '' && !/key|token/.test(name) ? ` ${JSON.stringify(value)}` : '';
    throw new ActionInputError(name, `${shown ? `${shown.trim()} ` : ''}${issue?.message ?? 'invalid'}`);
  }
  const d = res.data;
  return {
    anthropicApiKey: d.anthropic_api_key,
    githubToken: d.github_token,
    trigger: d.trigger,
    ...(d.prompt !== undefined ? { prompt: d.prompt } : {}),
    mode: d.mode,
    config: d.config,
    ...(d.model !== undefined ? { model: d.model } : {}),
    ...(d.max_turns !== undefined ? { maxTurns: d.max_turns } : {}),
    ...(d.max_cost_usd !== undefined ? { maxCostUsd: d.max_cost_usd } : {}),
    ...(d.test_command !== undefined ? { testCommand: d.test_command } : {}),
  };
}
