import { realpathSync } from 'node:fs';
import type { Logger } from 'pino';
import { silentLogger } from '../../log.js';
import { NO_ACCESS, type ToolAccess, type ToolDefinition } from '../../tools/define-tool.js';
import { defaultTools } from '../../tools/index.js';
import { createRegistry } from '../../tools/registry.js';
import type { PermissionDecision, PermissionPolicy } from './types.js';
import { analyzeBash } from './bash-analysis.js';
import { decideBash } from './bash-decision.js';
import { loadBashParser } from './bash-parser.js';
import { decideFileTool } from './file-decision.js';
import { decideProgramTool } from './program-tool-decision.js';
import { parseRules, type PermissionRule } from './rules.js';
import { createIgnoredPaths } from './git-ignored.js';
import { resolveInside } from './path-jail.js';
import { readWorktreeGitDirsSync } from '../../workspace/worktree-git-dir.js';
import { writableMatcher } from '../../workspace/protected-paths.js';
import { readableInWorld } from '../../workspace/world.js';
import { RULE_KINDS, fileRuleMatches } from './rules.js';
import { createWorktreeIndex } from './worktree-index.js';

export interface PolicyOptions {
  /** The worktree root (realpath'd here). */
  root: string;
  mode: 'plan' | 'default';
  allow: string[];
  deny: string[];
  /** `test.command`: allowed as a Bash prefix without a rule (CONTRACT §9). */
  testCommand?: string;
  writableWorkflows?: boolean;
  /** `permissions.writable`: protected paths (control files, secrets) the agent may change. */
  writable?: string[];
  /** Git directories to keep out of reach; default: what `<root>/.git` points to (gitdir + commondir). */
  gitDirs?: string[];
  /** Config file named in messages (default `.github/proofpr.yml`). */
  configFile?: string;
  logger?: Logger;
  /** The tools the model is offered (the run's toolbox); default the built-in ones. The policy asks each tool what a call is and touches. */
  tools?: ToolLookup;
}

/** What the policy needs from a tool registry (src/tools/registry.ts satisfies it). */
export interface ToolLookup {
  names(): string[];
  get(name: string): ToolDefinition | undefined;
}

function real(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** The worktree's git dir and common dir, from the one tamper-checked reader; none when `.git` is absent or tampered. */
function detectGitDirs(root: string): string[] {
  try {
    const dirs = readWorktreeGitDirsSync(root);
    return dirs ? [dirs.gitDir, dirs.commonDir] : [];
  } catch {
    return [];
  }
}

/** What the configured test command may do: its commands as prefix rules, its redirect targets, its env assignments. */
function testCommandGrants(
  parser: Awaited<ReturnType<typeof loadBashParser>>,
  testCommand: string | undefined,
  root: string,
  gitDirs: readonly string[],
) {
  const testRules: PermissionRule[] = [];
  const testRedirects = new Set<string>();
  const testEnv = new Set<string>();
  const a = testCommand ? analyzeBash(parser, testCommand) : undefined;
  if (!a?.ok) return { testRules, testRedirects, testEnv };
  for (const r of a.redirects) {
    const t = r.target?.value;
    const j = t ? resolveInside(root, t, { gitDirs }) : null;
    if (j?.ok) testRedirects.add(j.rel);
  }
  for (const c of a.commands) {
    for (const as of c.assignments) if (typeof as.value?.value === 'string') testEnv.add(`${as.name}=${as.value.value}`);
    const words = c.words.map((w) => w.value);
    if (words.every((w): w is string => w !== null))
      testRules.push({ text: `test.command:${words.join(' ')}`, tool: 'Bash', bash: { words, prefix: true } });
  }
  return { testRules, testRedirects, testEnv };
}

/**
 * Build the permission policy. Order: built-in deny > config deny > mode > config allow > built-in
 * safe list > default deny. Writes into paths git ignores are refused (they would not be committed);
 * Read(...) deny rules also hold for the path arguments of Bash read commands and recursive searches. Malformed rules throw ConfigError naming `permissions.allow[i]`.
 */
export async function createPolicy(opts: PolicyOptions): Promise<PermissionPolicy> {
  const allow = parseRules(opts.allow, 'allow');
  const deny = parseRules(opts.deny, 'deny');
  const root = real(opts.root);
  const gitDirs = (opts.gitDirs ?? detectGitDirs(root)).map(real);
  const configFile = opts.configFile ?? '.github/proofpr.yml';
  const log = opts.logger ?? silentLogger;
  const tools = opts.tools ?? createRegistry(defaultTools());
  const parser = await loadBashParser();
  const { testRules, testRedirects, testEnv } = testCommandGrants(parser, opts.testCommand, root, gitDirs);
  const ignored = createIgnoredPaths(root);
  const isWritable = writableMatcher(opts.writable ?? [], opts.writableWorkflows ?? false);
  const readRules = allow.filter((r) => r.paths !== undefined && (RULE_KINDS[r.tool] ?? []).includes('read'));
  // Read(...) allow rules and permissions.readable (the run's world, src/workspace/world.ts) open a secret-looking path.
  const secretExempt = (rel: string): boolean => readRules.some((r) => fileRuleMatches(r, 'read', rel)) || readableInWorld(root, rel);
  const base = { root, gitDirs, isWritable, secretExempt, mode: opts.mode, allow, deny, configFile, ignored };
  const index = createWorktreeIndex(root, gitDirs, secretExempt);
  const bash = { ...base, parser, testRules, testRedirects, testEnv, index };
  // A Bash command or a .gitignore edit may change what git ignores: re-ask git after either ran.
  let ignoreRulesMayHaveChanged = false;
  return {
    async check(tool: string, input: unknown): Promise<PermissionDecision> {
      if (ignoreRulesMayHaveChanged) {
        ignored.invalidate();
        index.invalidate();
      }
      ignoreRulesMayHaveChanged = false;
      let d: PermissionDecision;
      try {
        const def = tools.get(tool);
        const parsed = def?.input.safeParse(input);
        if (!def) {
          d = { behavior: 'deny', rule: 'default-deny', reason: `unknown tool ${tool}; use one of ${tools.names().join(', ')}` };
        } else if (!parsed?.success) {
          const issue = parsed?.error.issues[0];
          const where = issue?.path.length ? issue.path.join('.') : 'input';
          d = {
            behavior: 'deny',
            rule: 'builtin-deny:input',
            reason: `${tool} input is not valid (${where}: ${issue?.message ?? 'invalid'}); fix it and call ${tool} again`,
          };
        } else {
          const access = accessOf(def, parsed.data);
          d =
            access.command !== undefined
              ? decideBash(bash, access.command)
              : def.kind === 'execute'
                ? decideProgramTool(base, tool, def.readOnly === true)
                : decideFileTool(base, { tool, kind: def.kind, access });
        }
      } catch (e) {
        d = {
          behavior: 'deny',
          rule: 'internal-error',
          reason: `the permission check failed (${(e as Error).message}); the call was refused`,
        };
      }
      log.debug({ tool, behavior: d.behavior, rule: d.rule }, 'permission decision');
      return d;
    },
    executed(tool: string, input: unknown): void {
      const def = tools.get(tool);
      const parsed = def?.input.safeParse(input);
      if (!def || !parsed?.success) return;
      const touchesIgnoreRules =
        def.kind === 'edit' && accessOf(def, parsed.data).paths.some((l) => l.path !== undefined && /(^|[/\\])\.gitignore$/.test(l.path));
      if (def.kind === 'execute' || touchesIgnoreRules) ignoreRulesMayHaveChanged = true;
    },
  };
}

function accessOf(def: ToolDefinition, input: unknown): ToolAccess {
  return def.access?.(input) ?? NO_ACCESS;
}
