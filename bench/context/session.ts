/**
 * A scripted 60-turn fix session with realistic tool outputs: globs, greps, file reads of 2–8 KB, edits,
 * todo updates and test runs (failing, one long output saved to tool-output/, then passing).
 * Deterministic: a seeded generator, no clock.
 */
import type { AssistantBlock, ToolUseBlock } from '../../src/model/model-client.js';
import type { GateResult, TodoItem } from '../../src/agent/events.js';

export const TURNS = 60;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rand = rng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const between = (lo: number, hi: number): number => Math.floor(lo + rand() * (hi - lo));

const FILES = [
  'src/parser/split-lines.ts', 'src/parser/tokenize.ts', 'src/parser/index.ts', 'src/parser/errors.ts', 'src/io/read-input.ts',
  'src/io/stream.ts', 'src/cli/main.ts', 'src/cli/args.ts', 'src/format/render.ts', 'src/format/escape.ts',
  'test/parser/split-lines.test.ts', 'test/parser/tokenize.test.ts', 'test/io/read-input.test.ts', 'src/util/text.ts', 'src/util/assert.ts',
] as const;
const WORDS = ['line', 'buffer', 'offset', 'token', 'input', 'chunk', 'index', 'result', 'state', 'length', 'value', 'cursor'];

/** TypeScript-looking source of about `bytes` bytes. */
export function sourceFile(path: string, bytes: number): string {
  const out: string[] = [`// ${path}`, "import { strict as assert } from 'node:assert';", ''];
  let n = 0;
  let fn = 0;
  while (n < bytes) {
    const a = pick(WORDS);
    const b = pick(WORDS);
    const lines = [
      `/** Returns the ${a} for a ${b}; keeps the trailing ${pick(WORDS)} when present. */`,
      `export function ${a}Of${b[0]?.toUpperCase()}${b.slice(1)}${fn}(${b}: string, ${a}: number = 0): string[] {`,
      `  const out: string[] = [];`,
      `  for (let i = ${a}; i < ${b}.length; i++) {`,
      `    if (${b}[i] === '\\n') { out.push(${b}.slice(${a}, i)); ${a} = i + 1; }`,
      '  }',
      `  ${between(0, 2) ? `if (${a} < ${b}.length) out.push(${b}.slice(${a}));` : `assert(${a} <= ${b}.length, '${a} past end');`}`,
      '  return out;',
      '}',
      '',
    ];
    fn++;
    for (const l of lines) {
      out.push(l);
      n += l.length + 1;
    }
  }
  return out.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');
}

function grepOutput(pattern: string): string {
  const hits: string[] = [];
  const count = between(12, 40);
  for (let i = 0; i < count; i++) hits.push(`${pick(FILES)}:${between(1, 240)}:  const ${pick(WORDS)} = ${pattern}(${pick(WORDS)}, ${between(0, 9)});`);
  return hits.join('\n');
}

function testOutput(failing: number, bytes: number): string {
  const lines: string[] = ['> parser@1.4.0 test', '> jest', ''];
  let n = 0;
  let i = 0;
  while (n < bytes) {
    const file = pick(FILES.filter((f) => f.startsWith('test/')));
    const fail = i < failing;
    const block = fail
      ? [`FAIL ${file}`, `  ● splitLines › keeps the last line without a trailing newline #${i}`, '', '    expect(received).toEqual(expected) // deep equality', '', '    - Expected  - 0', '    + Received  + 1', '', `      at Object.<anonymous> (${file}:${between(10, 90)}:${between(5, 30)})`, '']
      : [`PASS ${file} (${between(1, 9)}.${between(0, 99)} s)`, `  ✓ ${pick(WORDS)} handles ${pick(WORDS)} ${i} (${between(1, 40)} ms)`, ''];
    for (const l of block) {
      lines.push(l);
      n += l.length + 1;
    }
    i++;
  }
  lines.push(`Tests:       ${failing} failed, ${i - failing} passed, ${i} total`);
  return lines.join('\n');
}

export interface ToolCallScript {
  use: ToolUseBlock;
  result: string;
  isError?: boolean;
  /** When the harness saves the full output (test logs over the budget). */
  fullOutputBytes?: number;
}

export interface TurnScript {
  thinking: string;
  calls: ToolCallScript[];
  edits: string[];
  gates?: GateResult[];
  todos?: TodoItem[];
}

let ids = 0;
function call(name: string, input: Record<string, unknown>, result: string, extra: Partial<ToolCallScript> = {}): ToolCallScript {
  ids++;
  return { use: { type: 'tool_use', id: `toolu_bench_${String(ids).padStart(3, '0')}`, name, input }, result, ...extra };
}

function read(path: string): ToolCallScript {
  return call('Read', { file_path: path }, sourceFile(path, between(2048, 8192)));
}

function testRun(turn: number, failing: number, bytes: number): { call: ToolCallScript; gates: GateResult[] } {
  const out = testOutput(failing, bytes);
  const big = bytes > 30_000;
  const logPath = `runs/bench/tool-output/toolu_bench_t${turn}.txt`;
  const shown = big ? `${out.slice(0, 18_000)}\n\n[... omitted ...]\n\n${out.slice(-9_000)}\n\n[Output too long for one result. The full output is saved at ${logPath}: use Read with offset/limit or Grep on that path to see the rest.]` : out;
  const c = call('Bash', { command: 'npm test', description: 'run the test suite' }, shown, { isError: failing > 0, ...(big ? { fullOutputBytes: bytes } : {}) });
  const gates: GateResult[] = [
    { name: 'tests_ran', passed: true, detail: 'jest summary line found' },
    { name: 'tests_passed', passed: failing === 0, detail: failing === 0 ? 'all passed' : `${failing} failed (log ${logPath})` },
  ];
  return { call: c, gates };
}

/** The 60 assistant turns (the last one ends the run with text only). */
export function scriptSession(): TurnScript[] {
  const turns: TurnScript[] = [];
  const todos: TodoItem[] = [
    { content: 'reproduce the dropped last line', status: 'in_progress' },
    { content: 'fix splitLines', status: 'pending' },
    { content: 'add a regression test', status: 'pending' },
    { content: 'run the whole suite', status: 'pending' },
  ];
  for (let t = 1; t <= TURNS; t++) {
    const thinking = `Turn ${t}: ${Array.from({ length: between(2, 6) }, () => `the ${pick(WORDS)} ${pick(['is reset', 'is off by one', 'is consumed', 'comes from the caller', 'is never flushed'])} in ${pick(FILES)}`).join('; ')}.`;
    const turn: TurnScript = { thinking, calls: [], edits: [] };
    if (t === TURNS) {
      turns.push(turn);
      break;
    }
    if (t === 1) turn.calls.push(call('Glob', { pattern: 'src/**/*.ts' }, FILES.filter((f) => f.startsWith('src/')).join('\n')));
    else if (t <= 3) turn.calls.push(call('Grep', { pattern: pick(WORDS), path: 'src' }, grepOutput(pick(WORDS))));
    else if (t === 16 || t === 33 || t === 50) {
      todos.forEach((x, i) => (x.status = i < Math.floor(t / 16) ? 'completed' : i === Math.floor(t / 16) ? 'in_progress' : 'pending'));
      turn.calls.push(call('TodoWrite', { todos: todos.map((x) => ({ ...x })) }, 'Todo list updated.'));
      turn.todos = todos.map((x) => ({ ...x }));
    } else if (t === 21 || t === 31 || t === 46 || t === 56) {
      const { call: c, gates } = testRun(t, t === 56 ? 0 : t === 46 ? 1 : 3, t === 31 ? 48_000 : between(3_000, 9_000));
      turn.calls.push(c);
      turn.gates = gates;
    } else if (t % 5 === 0 || t === 57) {
      const path = pick(FILES);
      turn.calls.push(call('Edit', { file_path: path, old_string: `if (${pick(WORDS)} < input.length)`, new_string: `if (${pick(WORDS)} <= input.length)` }, `Edited ${path}: 1 replacement.`));
      turn.edits.push(path);
    } else if (t % 7 === 0) {
      turn.calls.push(read(pick(FILES)), read(pick(FILES)));
    } else if (t % 4 === 0) {
      turn.calls.push(call('Grep', { pattern: `${pick(WORDS)}Of`, path: '.' }, grepOutput(pick(WORDS))));
    } else turn.calls.push(read(pick(FILES)));
    turns.push(turn);
  }
  return turns;
}

export function assistantContent(turn: TurnScript): AssistantBlock[] {
  return [{ type: 'text', text: turn.thinking }, ...turn.calls.map((c) => c.use)];
}
