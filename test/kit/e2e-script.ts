/**
 * A scripted model's turns for end-to-end runs, one tool call a turn (read, edit, write, bash) or a
 * closing text (said, DONE), and the demo repository's honest fix (examples/demo/repo: median() sorts
 * numbers as strings).
 */
import type { AssistantBlock } from '../../src/model/model-client.js';
import { text, toolUse, type ScriptStep } from '../../src/model/scripted.js';

/** One model turn with these blocks. */
export const turn = (...content: AssistantBlock[]): ScriptStep => ({ content });
export const read = (file_path: string): ScriptStep => turn(toolUse('Read', { file_path }));
export const edit = (file_path: string, old_string: string, new_string: string): ScriptStep =>
  turn(toolUse('Edit', { file_path, old_string, new_string }));
export const write = (file_path: string, content: string): ScriptStep => turn(toolUse('Write', { file_path, content }));
export const bash = (command: string): ScriptStep => turn(toolUse('Bash', { command }));
/** A turn that only says `s` (no tool call: the model is done). */
export const said = (s: string): ScriptStep => turn(text(s));
export const DONE = said('Done: the tests pass.');

/** The demo's bug fixed: median() sorts numerically. */
export const MEDIAN_FIX = edit('src/stats.js', 'const sorted = [...values].sort();', 'const sorted = [...values].sort((a, b) => a - b);');

/** The honest run on the demo repository: read src/stats.js, fix the median, run `command`, then say `last`. */
export const demoFix = (command = 'node --test', last = 'done'): ScriptStep[] => [
  read('src/stats.js'),
  MEDIAN_FIX,
  bash(command),
  said(last),
];
