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
export function family(prefix: string, cls: string, rows: Named[], more: { kind?: CaseKind; alone?: boolean } = {}): EffectCase[] {
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
