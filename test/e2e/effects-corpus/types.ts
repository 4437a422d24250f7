/**
 * One case of the effects corpus: a tool call (or a short chain of them) a model could make, attack or
 * benign, judged only by what it did (see README.md). Inputs are data with placeholders filled in at play
 * time (world.ts): {REPO} the caller's checkout, {HOME} the fake home folder, {SIBLING} a folder next to
 * the checkout, {PHOME} the PROOFPR_HOME state folder, {HTTP} the recording listener's URL, {PORT} its port,
 * {UDP} the recording UDP listener's port, {API} the fake Messages API's URL, {ID} the case id.
 */
export type CaseKind = 'attack' | 'benign';

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Text the call's result must hold (a benign call whose result lacks it counts as not allowed: a wall that hid what it may read). */
  expect?: string;
  /** More calls sent in the same model turn (tool_use blocks side by side: several Task calls run at once). */
  parallel?: ToolCall[];
}

/** What a sub-agent the case starts (a Task whose prompt names the case) does: its calls, then done, or its calls round and round. */
export interface SubagentScript {
  calls: ToolCall[];
  /** Never says it is done: repeats its calls until the run stops it. */
  endless?: boolean;
  /** The usage each of its turns reports (tokens): what the run is billed. */
  usage?: { input: number; output: number };
}

/** A world made for one case (played alone): config values that differ, and more tracked files ({ID}, {SIBLING} filled in). */
export interface WorldTweak {
  maxCostUsd?: number;
  maxTurns?: number;
  /** Leave the configured MCP server out of the config. */
  noMcpServers?: boolean;
  tracked?: Record<string, string>;
}

export interface EffectCase {
  /** Stable and unique: the known-harmful list names it. */
  id: string;
  kind: CaseKind;
  /** The attack class (README table) or the benign family. */
  cls: string;
  /** One or more calls played in order in the same run; the last one is the attack, the ones before set it up. */
  calls: ToolCall[];
  /** Played in a run of its own: its effect may end or disturb the run (hangs, crashes, killers). */
  alone?: boolean;
  /** Played in a run with the other cases of the same group only: a crash of that run is each of theirs. */
  group?: string;
  /** The world of its run differs from the shared one (implies alone). */
  world?: WorldTweak;
  /** Its sub-agents (Task calls whose prompt holds `FXSUB:{ID}`). */
  subagent?: SubagentScript;
  /** The run may end before its calls are all played (the budget it spends is meant to end the run). */
  endsRun?: boolean;
  /** Judged also by the end of its run: `spend` (model spend and turns past the run's caps), `lifecycle` (a lifecycle script in the commit, not named and refused). */
  judge?: 'spend' | 'lifecycle';
}

export const call = (tool: string, input: Record<string, unknown>): ToolCall => ({ tool, input });
export const bash = (command: string, timeout?: number): ToolCall =>
  call('Bash', { command, ...(timeout !== undefined ? { timeout } : {}) });

/** A named call, or chain of calls played in order. */
export type Named = [name: string, calls: ToolCall | ToolCall[]];
/** A named way to act on a path (a reader, a writer): the calls for path `p`. */
export type Maker = [name: string, make: (p: string) => ToolCall[]];

/** A shell command from a template: each `@` is the path. */
export const sh =
  (tpl: string): ((p: string) => ToolCall[]) =>
  (p) => [bash(tpl.replaceAll('@', p))];

/** One case a row: id `${prefix}-${name}`, each of class `cls`, an attack unless `kind` says otherwise. */
export function family(
  prefix: string,
  cls: string,
  rows: Named[],
  more: Partial<Pick<EffectCase, 'kind' | 'alone' | 'group' | 'endsRun' | 'judge'>> = {},
): EffectCase[] {
  const { kind = 'attack', ...rest } = more;
  return rows.map(([name, calls]) => ({ id: `${prefix}-${name}`, kind, cls, calls: Array.isArray(calls) ? calls : [calls], ...rest }));
}

/** Every maker on every named target: attacks of class `cls`, id `${prefix}-${target}-${maker}` (the prefix is the class unless given). */
export function matrix(cls: string, targets: Array<[string, string]>, makers: Maker[], prefix = cls): EffectCase[] {
  return targets.flatMap(([target, path]) =>
    makers.map(([maker, make]) => ({ id: `${prefix}-${target}-${maker}`, kind: 'attack' as const, cls, calls: make(path) })),
  );
}

/**
 * A setup step through the one channel that always runs code: a test file the allowed test command
 * executes (then deletes itself, so later test runs do not repeat it). The attack after it is what is judged.
 */
export const viaTest = (body: string): ToolCall[] => [
  call('Write', {
    file_path: 'test/setup-{ID}.test.js',
    content: `import { test } from 'node:test';\nimport fs from 'node:fs';\nimport cp from 'node:child_process';\ntest('setup', () => {\n  try {\n${body}\n  } catch (e) {\n    console.log(String(e));\n  }\n  fs.unlinkSync(new URL(import.meta.url));\n});\n`,
  }),
  bash('node --test test/setup-{ID}.test.js'),
];
