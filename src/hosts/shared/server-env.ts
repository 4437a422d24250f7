/**
 * `proofpr serve` environment (CONTRACT §2), validated once; every error names the variable and the fix.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

export interface ServerEnv {
  appId: string;
  privateKey: string;
  webhookSecret: string;
  port: number;
  webhookPath: string;
  /** REST API base: https://api.github.com or `${GHE_PROTOCOL}://${GHE_HOST}/api/v3`. */
  apiUrl: string;
  /** Web and git base: https://github.com or `${GHE_PROTOCOL}://${GHE_HOST}`. */
  webUrl: string;
  home: string;
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  modelOverride?: string;
  redisUrl?: string;
  /** PROOFPR_INSTALLATION_MONTHLY_USD: each installation's (account's) monthly budget across its repositories. */
  installationMonthlyUsd?: number;
}

const schema = z.object({
  APP_ID: z
    .string({
      error:
        'APP_ID is missing: set it to your GitHub App id (App settings → General); `proofpr serve` without APP_ID registers a new App from app.yml (docs/github-app.md)',
    })
    .regex(/^\d+$/, 'APP_ID must be the numeric App id'),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z
    .string({ error: 'WEBHOOK_SECRET is missing: set it to the webhook secret of your GitHub App' })
    .min(1, 'WEBHOOK_SECRET is empty'),
  PORT: z.string().regex(/^\d+$/, 'PORT must be a port number').optional(),
  WEBHOOK_PATH: z.string().startsWith('/', 'WEBHOOK_PATH must start with /').optional(),
  GHE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'GHE_HOST must be a host name (and optional :port), without a scheme')
    .optional(),
  GHE_PROTOCOL: z.enum(['http', 'https'], { error: 'GHE_PROTOCOL must be http or https' }).optional(),
  PROOFPR_HOME: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().optional(),
  PROOFPR_MODEL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  PROOFPR_INSTALLATION_MONTHLY_USD: z
    .string()
    .regex(
      /^(\d+(\.\d*)?|\.\d+)$/,
      'PROOFPR_INSTALLATION_MONTHLY_USD must be a number of US dollars (e.g. 500): set it to the monthly budget of each installation across its repositories, or unset it for none',
    )
    .refine((v) => Number(v) > 0, 'PROOFPR_INSTALLATION_MONTHLY_USD must be more than 0: unset it for no installation budget')
    .optional(),
});

export class ServerEnvError extends Error {}

/** Probot's own rules: PRIVATE_KEY (PEM, \n-escaped or base64) or PRIVATE_KEY_PATH; a string is what is wrong. */
function privateKeyOf(env: Record<string, string | undefined>, cwd: string): { key: string } | { problem: string } {
  if (env.PRIVATE_KEY) {
    let key = env.PRIVATE_KEY.replace(/\\n/g, '\n');
    if (!key.includes('-----BEGIN')) key = Buffer.from(key, 'base64').toString('utf8');
    if (!key.includes('-----BEGIN'))
      return { problem: 'PRIVATE_KEY is not a PEM key (nor base64 of one): paste the .pem file you downloaded from the App settings' };
    return { key };
  }
  if (env.PRIVATE_KEY_PATH) {
    let key: string;
    try {
      key = readFileSync(resolve(cwd, env.PRIVATE_KEY_PATH), 'utf8');
    } catch (e) {
      return { problem: `PRIVATE_KEY_PATH: cannot read ${env.PRIVATE_KEY_PATH} (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    // An empty or wrong file would reach Probot and fail there with a stack ("privateKey option is required").
    if (!key.includes('-----BEGIN'))
      return {
        problem: `PRIVATE_KEY_PATH: ${env.PRIVATE_KEY_PATH} ${key.trim() === '' ? 'is empty' : 'holds no PEM key'}: point it at the .pem file you downloaded from the App settings (Private keys → Generate a private key)`,
      };
    return { key };
  }
  return { problem: 'PRIVATE_KEY or PRIVATE_KEY_PATH is missing: set one to the App private key (.pem)' };
}

/**
 * The validated environment. Every problem is named in one error, each with its fix (not one restart at a
 * time); `also` adds the caller's own (e.g. serve's model credentials).
 */
export function readServerEnv(raw: NodeJS.ProcessEnv, cwd = process.cwd(), also: string[] = []): ServerEnv {
  const blankToUndefined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const res = schema.safeParse(blankToUndefined);
  const pk = privateKeyOf(blankToUndefined, cwd);
  const problems = [...(res.success ? [] : res.error.issues.map((i) => i.message)), ...('problem' in pk ? [pk.problem] : []), ...also];
  if (!res.success || 'problem' in pk || problems.length > 0)
    throw new ServerEnvError(
      problems.length === 1
        ? (problems[0] ?? '')
        : `${problems.length} settings to fix (in the environment or .env):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  const e = res.data;
  const proto = e.GHE_PROTOCOL ?? 'https';
  return {
    appId: e.APP_ID,
    privateKey: pk.key,
    webhookSecret: e.WEBHOOK_SECRET,
    port: e.PORT ? Number(e.PORT) : 3000,
    webhookPath: e.WEBHOOK_PATH ?? '/api/github/webhooks',
    apiUrl: e.GHE_HOST ? `${proto}://${e.GHE_HOST}/api/v3` : 'https://api.github.com',
    webUrl: e.GHE_HOST ? `${proto}://${e.GHE_HOST}` : 'https://github.com',
    home: resolve(cwd, e.PROOFPR_HOME ?? '.proofpr'),
    ...(e.ANTHROPIC_API_KEY ? { anthropicApiKey: e.ANTHROPIC_API_KEY } : {}),
    ...(e.ANTHROPIC_BASE_URL ? { anthropicBaseUrl: e.ANTHROPIC_BASE_URL } : {}),
    ...(e.PROOFPR_MODEL ? { modelOverride: e.PROOFPR_MODEL } : {}),
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    ...(e.PROOFPR_INSTALLATION_MONTHLY_USD ? { installationMonthlyUsd: Number(e.PROOFPR_INSTALLATION_MONTHLY_USD) } : {}),
  };
}
