/**
 * The context manager the loop talks to (types.ts): a byte-stable system prompt and tool list with cache
 * breakpoints, messages as sent (rolling breakpoint + reminder), and compaction cheapest first.
 */
import type { Logger } from 'pino';
import type { Message, ModelClient, TextBlock, ToolSchema } from '../../model/model-client.js';
import { DEFAULT_MODEL } from '../../config/repo-config.js';
import { logger as rootLogger } from '../../log.js';
import type { CompactionResult, CompactionState, ContextManager, ContextTask, DynamicFacts, InstructionFile, SkillInfo } from './types.js';
import { buildSystemPrompt } from './system-prompt.js';
import { DEFAULT_INSTRUCTIONS_MAX_BYTES, loadInstructions } from './instructions.js';
import { loadRuleFiles, withStartupRules } from './rule-files.js';
import { loadSkills } from './skills.js';
import { withRollingBreakpoints, withToolsBreakpoint } from './cache.js';
import { withReminder } from './reminder.js';
import { estimateSystem, estimateTokens, estimateTools } from './estimate.js';
import { microcompact } from './microcompact.js';
import type { SummaryOptions } from './compaction.js';
import { createNestedInstructions } from './nested-instructions.js';
import { createCacheClock } from './time-clear.js';
import { createSessionNotes } from './session-notes.js';
import {
  cleared,
  clearedAfterExpiry,
  compactAtThreshold,
  orCleared,
  summarizeAndRemount,
  withTotals,
  type Tiers,
} from './compaction-tiers.js';

export const DEFAULT_CONTEXT_WINDOW = 200_000;

export interface ContextManagerOptions {
  root: string;
  /** The registered tools' names (the Skill tool among them when there are skills). */
  toolNames: string[];
  task: ContextTask;
  testCommand?: string;
  mode: 'fix' | 'plan';
  gatesEnabled: string[];
  /** Model context window in tokens (default 200 000). */
  contextWindow?: number;
  /** Fraction of the window at which a summary compaction runs (default 0.75). */
  compactThreshold?: number;
  /** Fraction of the window at which old tool results are cleared (default 0.5). */
  microcompactThreshold?: number;
  /** Latest tool results microcompact never clears (default 6). */
  protectRecent?: number;
  /** Where AGENTS.md / CLAUDE.md and skills are read from (default root): PR follow-ups use the base branch's. */
  instructionsRoot?: string;
  /** The skills index, when the caller loaded it already (it registers the Skill tool over the same load); else read from instructionsRoot. */
  skills?: SkillInfo[];
  /** Folders the task touches, relative to root: their AGENTS.md / CLAUDE.md chain is loaded. */
  touchedDirs?: string[];
  logger?: Logger;
  /** Model id for the summary request (default the config default). */
  model?: string;
  /** Cap on repository instruction text (bytes, default 24 000). */
  instructionsMaxBytes?: number;
  /** Runs right before every summary compaction (the repository's PreCompact hooks). */
  beforeSummary?: () => Promise<void>;
  /** Runs after every compaction that replaced the history (the repository's PostCompact hooks). */
  afterCompact?: (result: CompactionResult) => Promise<void>;
  /** The repository's feedback memory index (numbered lines): in the system prompt after the instructions. */
  memoryIndex?: string;
  /** Prompt cache lifetime in ms (default 5 min): after a longer pause, old tool results are cleared (the cache is cold anyway). */
  cacheTtlMs?: number;
  /** The clock (ms), for tests; default Date.now. */
  now?: () => number;
  /**
   * At the summary threshold, the harness's session notes stand in for the model's summary when they are
   * substantive and bring the context below NOTES_HEADROOM of the threshold (default true). A
   * prompt-too-long error always gets the model's summary (the estimate was wrong: take the strongest tier).
   */
  sessionNotes?: boolean;
}

/** The manager plus what it loaded (the lead registers the Skill tool when `skills` is not empty). */
export interface LoadedContextManager extends ContextManager {
  readonly skills: SkillInfo[];
  readonly instructions: InstructionFile[];
}

function fraction(value: number | undefined, fallback: number, field: string): number {
  const v = value ?? fallback;
  if (!(v > 0 && v <= 1)) throw new Error(`${field} must be a fraction of the context window in (0, 1], got ${String(value)}`);
  return v;
}

/** When the context is compacted, in tokens of the model's window. */
function compactionThresholds(opts: ContextManagerOptions): {
  window: number;
  summaryAt: number;
  microAt: number;
  microTarget: number;
  protectRecent: number;
} {
  const window = opts.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const summaryAt = fraction(opts.compactThreshold, 0.75, 'compactThreshold') * window;
  const microAt = Math.min(fraction(opts.microcompactThreshold, 0.5, 'microcompactThreshold') * window, summaryAt);
  /**
   * Every compaction rewrites the cache from the first changed block, so one must buy real headroom:
   * a microcompact is used only when it brings the context down to 70% of the microcompact threshold;
   * otherwise nothing happens until the summary threshold, where a summary resets the context.
   */
  const microTarget = microAt * 0.7;
  return { window, summaryAt, microAt, microTarget, protectRecent: opts.protectRecent ?? 6 };
}

/** The summary request's options: the latest 5% of the window stays verbatim; the test command is named in the facts. */
function summaryOptions(opts: ContextManagerOptions, model: string, window: number): SummaryOptions {
  return {
    model,
    contextWindow: window,
    keepRecentTokens: Math.floor(window * 0.05),
    ...(opts.testCommand ? { testCommand: opts.testCommand } : {}),
  };
}

/** What the manager reads once: instruction files, skills, the nested-instructions tracker, the system prompt. */
async function loadParts(opts: ContextManagerOptions, log: Logger) {
  const from = opts.instructionsRoot ?? opts.root;
  const maxBytes = opts.instructionsMaxBytes ?? DEFAULT_INSTRUCTIONS_MAX_BYTES;
  const chain = await loadInstructions(from, opts.touchedDirs ?? [], { maxBytes });
  // .claude/rules: those without paths: join the chain (same cap); the scoped ones wait for a matching Read.
  const rules = await loadRuleFiles(from);
  const instructions = withStartupRules(chain, rules, maxBytes);
  const skills = opts.skills ?? (await loadSkills(from, log));
  const folders = ['', ...chain.map((f) => f.path.split('/').slice(0, -1).join('/'))];
  const nested = createNestedInstructions(
    opts.root,
    from,
    folders,
    rules.filter((r) => r.paths),
  );
  const system = buildSystemPrompt({
    toolNames: opts.toolNames,
    instructions,
    skills,
    task: opts.task,
    mode: opts.mode,
    gatesEnabled: opts.gatesEnabled,
    ...(opts.testCommand ? { testCommand: opts.testCommand } : {}),
    ...(opts.memoryIndex ? { memoryIndex: opts.memoryIndex } : {}),
  });
  return { instructions, skills, nested, system };
}

export async function createContextManager(opts: ContextManagerOptions): Promise<LoadedContextManager> {
  const log = opts.logger ?? rootLogger('context');
  const { window, summaryAt, microAt, microTarget, protectRecent } = compactionThresholds(opts);
  const model = opts.model ?? DEFAULT_MODEL;

  const { instructions, skills, nested, system } = await loadParts(opts, log);
  const systemTokens = estimateSystem(system);
  let toolsTokens = 0;
  /** After a microcompact: the last unchanged user turn, marked once so its cached prefix is read. */
  let anchor: { index: number; json: string } | undefined;
  const total = (messages: Message[]): number => systemTokens + toolsTokens + estimateTokens(messages);
  const summaryOpts = summaryOptions(opts, model, window);
  const notes = createSessionNotes();
  const tiers: Tiers = { opts, summaryOpts, notes, summaryAt, total, log };
  const clock = createCacheClock({
    keepRecent: protectRecent,
    ...(opts.cacheTtlMs !== undefined ? { ttlMs: opts.cacheTtlMs } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });

  const manager: LoadedContextManager = {
    skills,
    instructions,
    system(): TextBlock[] {
      return system.map((b) => ({ ...b }));
    },
    tools(schemas: ToolSchema[]): ToolSchema[] {
      const out = withToolsBreakpoint(schemas);
      toolsTokens = estimateTools(out);
      return out;
    },
    prepare(messages: Message[], facts: DynamicFacts): Message[] {
      const a = anchor && JSON.stringify(messages[anchor.index]) === anchor.json ? anchor.index : undefined;
      anchor = undefined;
      clock.sent();
      return withReminder(withRollingBreakpoints(nested.attach(messages), a), facts);
    },
    async maybeCompact(messages: Message[], state: CompactionState, client: ModelClient): Promise<CompactionResult | undefined> {
      await nested.observe(messages); // before each request: the folders read into so far
      notes.observe(messages); // before any clearing: the calls, their outcomes, the model's notes
      const before = total(messages);
      const expired = clearedAfterExpiry(clock, messages, before, log);
      if (expired) return expired;
      if (before < microAt) return undefined;
      const micro = microcompact(messages, { protectRecent });
      const afterMicro = before - micro.savedTokens;
      if (micro.cleared > 0 && afterMicro <= microTarget) {
        anchor = anchorBefore(micro.messages, micro.firstChanged);
        log.info({ before, after: afterMicro, cleared: micro.cleared }, 'microcompact');
        return cleared(micro, before, `cleared ${micro.cleared} old tool results`);
      }
      if (before < summaryAt) return undefined;
      return compactAtThreshold(tiers, messages, micro, state, client, before);
    },
    async forceCompact(messages: Message[], state: CompactionState, client: ModelClient): Promise<CompactionResult> {
      notes.observe(messages);
      const before = total(messages);
      const micro = microcompact(messages, { protectRecent: 2 });
      await opts.beforeSummary?.();
      const res = orCleared(
        withTotals(await summarizeAndRemount(opts.root, micro.messages, state, client, summaryOpts, messages), before, messages, total),
        micro,
        before,
      );
      log.info({ before, after: res.afterTokens, ok: res.ok, detail: res.detail }, 'forced compaction');
      return res;
    },
    estimateTokens(messages: Message[]): number {
      return total(messages);
    },
  };
  return withAfterCompact(manager, opts.afterCompact);
}

/** The last user turn before the first message a microcompact changed: marked once so its cached prefix is read. */
function anchorBefore(messages: Message[], firstChanged: number): { index: number; json: string } | undefined {
  const index = messages
    .slice(0, firstChanged)
    .map((m) => m.role)
    .lastIndexOf('user');
  return index >= 0 ? { index, json: JSON.stringify(messages[index]) } : undefined;
}

/** The manager whose compactions that replaced the history are followed by `afterCompact` (PostCompact hooks). */
function withAfterCompact(
  manager: LoadedContextManager,
  afterCompact: ((r: CompactionResult) => Promise<void>) | undefined,
): LoadedContextManager {
  if (!afterCompact) return manager;
  const after = async <R extends CompactionResult | undefined>(r: R): Promise<R> => {
    if (r?.ok) await afterCompact(r);
    return r;
  };
  return {
    ...manager,
    maybeCompact: async (m, state, client) => after(await manager.maybeCompact(m, state, client)),
    forceCompact: async (m, state, client) => after(await manager.forceCompact(m, state, client)),
  };
}
