import { z } from 'zod';
import { closestKey, knownKeysAt } from './did-you-mean.js';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error.js';
import { cronSchedule, hookMatcher, permissionRule, repoPath } from './refinements.js';
import { mcpOptionsSchema, mcpServersSchema } from './mcp-servers.js';
import { verifySchema } from './verify-config.js';

export { ConfigError } from './config-error.js';

/**
 * `.github/proofpr.yml` (CONTRACT §8), validated strictly: unknown keys are errors naming their path.
 * The JSON Schema in docs is generated from this same object (scripts/config-schema.ts).
 */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** A shell command line the harness runs (test.command, setup.command); absent = detected from the repository. */
const shellCommand = (description: string) => z.string().min(1).optional().describe(description);

const hookEntry = z
  .object({
    matcher: hookMatcher.optional().describe('regex on the tool name; omitted = every tool'),
    command: z.string().min(1).describe('bash command; JSON event on stdin; exit 2 blocks'),
    timeout_sec: z.number().int().positive().max(600).default(60).describe('seconds before the hook is killed (an error, not a block)'),
    on_failure: z
      .enum(['continue', 'block'])
      .default('continue')
      .describe(
        'when the hook cannot run (not found, crashed, timed out): continue = recorded as a hook error and the run goes on; block = treated as a block (a guard that did not run never passes)',
      ),
  })
  .strict();

const sweep = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes')
      .describe('sweep name (branch proofpr/sweep-<name>-<yyyymmdd>)'),
    schedule: cronSchedule.optional().describe('cron expression, used by `serve`'),
    prompt: z.string().min(1).describe("the sweep's task"),
    labels: z.array(z.string()).default([]).describe("labels for the sweep's PR"),
    max_open_prs: z.number().int().min(0).default(1).describe('open sweep PRs allowed at once (it updates its own open PR first)'),
    baseline: z
      .enum(['record', 'require_green'])
      .default('record')
      .describe(
        'record = a red base is recorded in the evidence and the sweep runs ("make the failing tests pass"); require_green = the sweep refuses to run on a red base',
      ),
  })
  .strict();

export const repoConfigSchema = z
  .object({
    trigger: z
      .string()
      .min(1)
      .default('/agent')
      .describe('comment prefix that starts a command (`/agent fix`, `/agent plan`, `/agent status`, `/agent cancel`)'),
    model: z.string().min(1).default(DEFAULT_MODEL).describe('model id (PROOFPR_MODEL and --model override it)'),
    provider: z
      .enum(['anthropic', 'bedrock', 'vertex'])
      .default('anthropic')
      .describe(
        "where model requests go: anthropic (ANTHROPIC_API_KEY), bedrock (Amazon Bedrock; AWS credentials and AWS_REGION from the AWS SDK's own environment) or vertex (Google Vertex AI; Google application default credentials, CLOUD_ML_REGION and ANTHROPIC_VERTEX_PROJECT_ID); PROOFPR_PROVIDER overrides it",
      ),
    thinking: z
      .object({
        budget_tokens: z
          .number()
          .int()
          .min(1024, 'the API needs a thinking budget of at least 1024 tokens')
          .max(128_000)
          .describe('tokens the model may spend thinking per request (the output limit grows to keep room for the answer)'),
      })
      .strict()
      .optional()
      .describe('extended thinking on every agent turn; thinking blocks go back to the model unchanged; absent = off'),
    effort: z
      .enum(['low', 'medium', 'high', 'max'])
      .optional()
      .describe("how much effort the model spends per request (the API's effort setting); absent = the API's default"),
    max_turns: z.number().int().positive().default(80).describe("maximum model requests per run (its sub-agents' included)"),
    max_cost_usd: z
      .number()
      .positive()
      .default(5)
      .describe(
        "maximum spend per run in USD (from token usage × model price), its sub-agents' included: a request is sent only when what is left pays for its worst case",
      ),
    timeout_min: z.number().positive().default(30).describe('wall-clock limit per run in minutes'),
    budget: z
      .object({
        monthly_usd: z
          .number()
          .positive()
          .optional()
          .describe(
            "refuse to start a run once this calendar month's (UTC) spend on the repository reached this (App only: its run store keeps the costs)",
          ),
      })
      .strict()
      .optional()
      .describe('spend across runs; absent = no monthly budget'),
    authorized: z
      .array(z.enum(['read', 'triage', 'write', 'maintain', 'admin']))
      .default(['write', 'maintain', 'admin'])
      .describe('repository permissions allowed to trigger a run (asked through the API)'),
    trigger_label: z.string().optional().describe('an issue label that starts a fix like `/agent fix`'),
    trigger_on_assign: z
      .boolean()
      .default(true)
      .describe(
        "assigning an issue to the App's bot user starts a fix like `/agent fix`, with the same authorisation (the assigner needs one of `authorized`); App only",
      ),
    test: z
      .object({
        command: shellCommand(
          'what counts as the tests; any Bash command starting with it is a test run, and the harness runs it itself at the end; when absent, detected from the repository (package.json scripts.test, pytest/unittest, go.mod, Cargo.toml, a Makefile test: target)',
        ),
        report: repoPath
          .optional()
          .describe(
            "report file the test command writes (JUnit XML or Jest/Vitest JSON); else counts come from the runner's summary lines",
          ),
        min_tests: z.number().int().min(0).default(1).describe('tests that must execute (passed + failed) for gate tests-ran'),
        timeout_min: z.number().positive().max(60).default(10).describe('limit for one harness test run in minutes'),
      })
      .strict()
      .default({ min_tests: 1, timeout_min: 10 }),
    setup: z
      .object({
        command: shellCommand(
          'run by the harness in the worktree before the agent starts, with network (e.g. `npm ci`); base-branch code only; when absent, detected from the lock file (npm ci, pnpm install --frozen-lockfile, yarn install --frozen-lockfile / --immutable, go mod download, cargo fetch)',
        ),
        timeout_min: z.number().positive().max(60).default(15).describe('limit for the setup command in minutes'),
      })
      .strict()
      .default({ timeout_min: 15 }),
    permissions: z
      .object({
        allow: z
          .array(permissionRule)
          .default([])
          .describe(
            'extra allow rules: `Bash(npm run lint:*)` (prefix), `Bash(make test)` (exact), `Edit(./docs/**)`; an MCP tool runs only when one names it: `mcp__docs__search`, or `mcp__docs` for every tool of the server',
          ),
        deny: z.array(permissionRule).default([]).describe('deny rules, same syntax; deny always wins'),
        writable_workflows: z
          .boolean()
          .default(false)
          .describe('allow edits under .github/workflows/ (same as listing `.github/workflows/**` in writable)'),
        writable: z
          .array(repoPath)
          .default([])
          .describe(
            'protected paths the agent may change (gitignore-style globs, e.g. `.github/workflows/**`, `.npmrc`; `package.json#scripts` allows lifecycle script changes in every package.json, a path such as `package.json` or `setup.py` allows its lifecycle or install-time changes): secret files, CI config, hooks, agent and package-manager configs are read-only otherwise',
          ),
        readable: z
          .array(repoPath)
          .default([])
          .describe(
            'paths the agent may read although their content matches a secret rule (gitignore-style globs, e.g. `config/dev.key`, `test/fixtures/certs/**`): hidden from every tool and masked in the sandbox otherwise',
          ),
        masked: z
          .array(repoPath)
          .default([])
          .describe(
            'tracked paths hidden from the agent in addition to the content rules (gitignore-style globs, e.g. `config/prod.yml`): masked in the sandbox, absent for every tool',
          ),
      })
      .strict()
      .default({ allow: [], deny: [], writable_workflows: false, writable: [], readable: [], masked: [] }),
    env: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
      .default([])
      .describe('extra environment variable names passed to Bash, hooks and tests (never secrets)'),
    mcp_servers: mcpServersSchema,
    mcp: mcpOptionsSchema,
    sandbox: z
      .enum(['auto', 'required', 'off'])
      .default('auto')
      .describe('run Bash, hooks and tests in bubblewrap (no network, read-only outside the worktree): auto = when available'),
    hooks: z
      .object({
        SessionStart: z.array(hookEntry).default([]),
        UserPromptSubmit: z.array(hookEntry).default([]),
        PreToolUse: z.array(hookEntry).default([]),
        PostToolUse: z.array(hookEntry).default([]),
        Stop: z.array(hookEntry).default([]),
        PreCompact: z.array(hookEntry).default([]),
        PostCompact: z.array(hookEntry).default([]),
        SubagentStop: z.array(hookEntry).default([]),
        SessionEnd: z.array(hookEntry).default([]),
      })
      .strict()
      .default({
        SessionStart: [],
        UserPromptSubmit: [],
        PreToolUse: [],
        PostToolUse: [],
        Stop: [],
        PreCompact: [],
        PostCompact: [],
        SubagentStop: [],
        SessionEnd: [],
      }),
    gates: z
      .object({
        tests_ran: z.boolean().default(true).describe('at least test.min_tests tests executed'),
        tests_fresh: z.boolean().default(true).describe('the passing run saw exactly the final tree (content hash)'),
        tests_passed: z.boolean().default(true).describe('the run exited 0 with no failed test'),
        assertions_kept: z.boolean().default(true).describe('test files lost no assertion and gained no skip/only'),
        final_run: z.boolean().default(true).describe('the harness reruns test.command on the final tree; that run is the evidence'),
        red_green: z
          .boolean()
          .optional()
          .describe(
            '[on for issues, off otherwise] a test that failed on the base passes now, or a new or changed test fails on the base tree plus only the test changes (proves the test catches the bug)',
          ),
        max_stop_blocks: z
          .number()
          .int()
          .min(0)
          .max(20)
          .default(3)
          .describe('times failing gates send the model back before the run ends unverified'),
        test_changes_allowed: z
          .array(z.string().min(1))
          .default([])
          .describe('globs (gitignore syntax) of test support files the agent may change freely: fixtures, data, helpers'),
        changed_tests: z
          .enum(['review', 'fail'])
          .default('review')
          .describe(
            "review: a base test that passed and fails on the new code because the change altered its expectation, or that the change deleted or renamed, is listed for review (PR body, evidence changedExpectations), and so is every change outside the shipped code that is not a test (evidence infrastructureChanges); fail: either makes the run unverified. The base's failing tests must pass under the base's own tests in both modes",
          ),
      })
      .strict()
      .default({
        tests_ran: true,
        tests_fresh: true,
        tests_passed: true,
        assertions_kept: true,
        final_run: true,
        max_stop_blocks: 3,
        test_changes_allowed: [],
        changed_tests: 'review',
      }),
    review: z
      .object({
        enabled: z
          .boolean()
          .default(false)
          .describe(
            'after the gates pass, a fresh-context read-only sub-agent looks at the issue, the diff and the final test output for counterexamples and untested cases; its findings go in the PR body and the evidence',
          ),
        block_on: z
          .enum(['none', 'high'])
          .default('none')
          .describe('none: findings never block; high: a high-severity finding fails the second-look gate (the run is unverified)'),
      })
      .strict()
      .default({ enabled: false, block_on: 'none' }),
    pr: z
      .object({
        draft: z.boolean().default(false).describe('open verified PRs as drafts'),
        draft_until_ci: z
          .boolean()
          .default(false)
          .describe(
            'open verified PRs as drafts and mark them ready for review when a check suite on the PR head completes with success (App only: it receives the check_suite webhooks)',
          ),
        labels: z.array(z.string()).default(['proofpr']).describe('labels put on the PRs proofpr opens'),
        on_unverified: z
          .enum(['comment', 'draft_pr'])
          .default('comment')
          .describe(
            'unverified work: a comment with the failed gates and its WIP ref (`draft_pr` no longer opens a PR: it would need a pushed branch, which starts CI)',
          ),
        wip_commit: z
          .boolean()
          .default(true)
          .describe('commit unverified/aborted work (pushed to `refs/proofpr/wip/<run-id>`, never to a branch)'),
      })
      .strict()
      .default({ draft: false, draft_until_ci: false, labels: ['proofpr'], on_unverified: 'comment', wip_commit: true }),
    commit: z
      .object({
        name: z.string().default('proofpr[bot]').describe('commit author name'),
        email: z.string().default('proofpr[bot]@users.noreply.github.com').describe('commit author email'),
      })
      .strict()
      .default({ name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' }),
    ci: z
      .object({
        wait_min: z
          .number()
          .min(0)
          .max(360)
          .default(30)
          .describe("watch the pushed commit's check runs and statuses this long (minutes); 0 = off"),
        fix_rounds: z.number().int().min(0).max(3).default(1).describe('follow-up runs when CI fails on that commit (never for forks)'),
        auto_update: z
          .boolean()
          .default(false)
          .describe(
            "`/agent fix` on proofpr's PR first merges the base branch into it whenever the base moved (without it: only when the PR conflicts), and in the App a push that moves the base of proofpr's own open PR starts that update when the PR now conflicts (a clean merge costs no run); conflicts are resolved by the agent, the result re-verified and pushed as a fast-forward, never a force push",
          ),
      })
      .strict()
      .default({ wait_min: 30, fix_rounds: 1, auto_update: false }),
    verify: verifySchema,
    sweeps: z
      .array(sweep)
      .default([])
      .describe('maintenance sweeps run by `proofpr sweep`, the Action in sweep mode, and `serve` on their schedule'),
  })
  .strict();

export type RepoConfig = z.infer<typeof repoConfigSchema>;

/** "permissions.allow[2]" style path for an issue. */
function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/** `_extends` reaches this point only when nothing could resolve it: a local run without a GitHub target. */
const EXTENDS_OFFLINE =
  "another repository's config is merged only when proofpr reads this file through GitHub (the App, the Action, `run --github-repo` without --config, `sweep` with a GitHub target); inline the settings here";

/** An unknown key's message, with the known key it is most likely a misspelling of. */
function unknownKey(key: string, known: readonly string[]): string {
  const close = closestKey(key, known);
  return close ? `unknown key: did you mean \`${close}\`?` : 'unknown key (remove it or check the spelling)';
}

/** Validate an already-parsed object; throws ConfigError listing every bad key path and its fix. */
export function validateRepoConfig(raw: unknown, source = '.github/proofpr.yml'): RepoConfig {
  const res = repoConfigSchema.safeParse(raw ?? {});
  if (res.success) return res.data;
  const issues = res.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') {
      const keys = (i as { keys: string[] }).keys;
      const base = issuePath(i.path);
      return keys
        .map(
          (k) =>
            `${base === '(root)' ? k : `${base}.${k}`}: ${base === '(root)' && k === '_extends' ? EXTENDS_OFFLINE : unknownKey(k, knownKeysAt(repoConfigSchema, i.path))}`,
        )
        .join('\n');
    }
    return `${issuePath(i.path)}: ${i.message}`;
  });
  throw new ConfigError(`invalid ${source}:\n${issues.map((l) => `  - ${l}`).join('\n')}`, issues);
}

/** Parse YAML text (empty or missing = defaults) and validate it. */
export function parseRepoConfig(text: string | undefined, source = '.github/proofpr.yml'): RepoConfig {
  return validateRepoConfig(parseConfigYaml(text, source), source);
}

/** YAML text (empty or missing = {}) to the raw mapping, not yet validated (`_extends` still in it). */
export function parseConfigYaml(text: string | undefined, source = '.github/proofpr.yml'): Record<string, unknown> {
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
  return (raw ?? {}) as Record<string, unknown>;
}
