import { z } from 'zod';
import { parse as parseYaml } from 'yaml';

/**
 * `.github/proofpr.yml` (CONTRACT §8), validated strictly: unknown keys are errors naming their path.
 * The JSON Schema in docs is generated from this same object (scripts/config-schema.ts).
 */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

const hookEntry = z
  .object({
    matcher: z.string().optional().describe('regex on the tool name; omitted = every tool'),
    command: z.string().min(1).describe('bash command; JSON event on stdin; exit 2 blocks'),
    timeout_sec: z.number().int().positive().max(600).default(60),
  })
  .strict();

const sweep = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
    schedule: z.string().optional().describe('cron expression, used by `serve`'),
    prompt: z.string().min(1),
    labels: z.array(z.string()).default([]),
    max_open_prs: z.number().int().min(0).default(1),
  })
  .strict();

export const repoConfigSchema = z
  .object({
    trigger: z.string().min(1).default('/agent'),
    model: z.string().min(1).default(DEFAULT_MODEL),
    max_turns: z.number().int().positive().default(80),
    max_cost_usd: z.number().positive().default(5),
    timeout_min: z.number().positive().default(30),
    authorized: z.array(z.enum(['read', 'triage', 'write', 'maintain', 'admin'])).default(['write', 'maintain', 'admin']),
    trigger_label: z.string().optional().describe('an issue label that starts a fix like `/agent fix`'),
    test: z
      .object({
        command: z.string().min(1).optional(),
        report: z.string().optional(),
        min_tests: z.number().int().min(0).default(1),
        timeout_min: z.number().positive().max(60).default(10),
      })
      .strict()
      .default({ min_tests: 1, timeout_min: 10 }),
    permissions: z
      .object({
        allow: z.array(z.string()).default([]),
        deny: z.array(z.string()).default([]),
        writable_workflows: z.boolean().default(false).describe('allow edits under .github/workflows/'),
      })
      .strict()
      .default({ allow: [], deny: [], writable_workflows: false }),
    env: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
      .default([])
      .describe('extra environment variable names passed to Bash, hooks and tests (never secrets)'),
    sandbox: z.enum(['auto', 'required', 'off']).default('auto'),
    hooks: z
      .object({
        SessionStart: z.array(hookEntry).default([]),
        UserPromptSubmit: z.array(hookEntry).default([]),
        PreToolUse: z.array(hookEntry).default([]),
        PostToolUse: z.array(hookEntry).default([]),
        Stop: z.array(hookEntry).default([]),
        PreCompact: z.array(hookEntry).default([]),
      })
      .strict()
      .default({ SessionStart: [], UserPromptSubmit: [], PreToolUse: [], PostToolUse: [], Stop: [], PreCompact: [] }),
    gates: z
      .object({
        tests_ran: z.boolean().default(true),
        tests_fresh: z.boolean().default(true),
        tests_passed: z.boolean().default(true),
        assertions_kept: z.boolean().default(true),
        final_run: z.boolean().default(true),
        red_green: z.boolean().default(false),
        max_stop_blocks: z.number().int().min(0).max(20).default(3),
      })
      .strict()
      .default({ tests_ran: true, tests_fresh: true, tests_passed: true, assertions_kept: true, final_run: true, red_green: false, max_stop_blocks: 3 }),
    pr: z
      .object({
        draft: z.boolean().default(false),
        labels: z.array(z.string()).default(['proofpr']),
        on_unverified: z.enum(['comment', 'draft_pr']).default('comment'),
        wip_commit: z.boolean().default(true).describe('commit unverified/aborted work on the branch'),
      })
      .strict()
      .default({ draft: false, labels: ['proofpr'], on_unverified: 'comment', wip_commit: true }),
    commit: z
      .object({
        name: z.string().default('proofpr[bot]'),
        email: z.string().default('proofpr[bot]@users.noreply.github.com'),
      })
      .strict()
      .default({ name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' }),
    sweeps: z.array(sweep).default([]),
  })
  .strict();

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** "permissions.allow[2]" style path for an issue. */
function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/** Validate an already-parsed object; throws ConfigError listing every bad key path and its fix. */
export function validateRepoConfig(raw: unknown, source = '.github/proofpr.yml'): RepoConfig {
  const res = repoConfigSchema.safeParse(raw ?? {});
  if (res.success) return res.data;
  const issues = res.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') {
      const keys = (i as { keys: string[] }).keys;
      const base = issuePath(i.path);
      return keys.map((k) => `${base === '(root)' ? k : `${base}.${k}`}: unknown key (remove it or check the spelling)`).join('\n');
    }
    return `${issuePath(i.path)}: ${i.message}`;
  });
  throw new ConfigError(`invalid ${source}:\n${issues.map((l) => `  - ${l}`).join('\n')}`, issues);
}

/** Parse YAML text (empty or missing = defaults) and validate it. */
export function parseRepoConfig(text: string | undefined, source = '.github/proofpr.yml'): RepoConfig {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = parseYaml(text);
    } catch (e) {
      throw new ConfigError(`invalid ${source}: YAML does not parse: ${(e as Error).message}`);
    }
  }
  if (raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ConfigError(`invalid ${source}: the top level must be a mapping of keys (trigger:, test:, ...)`);
  }
  return validateRepoConfig(raw ?? {}, source);
}
