/**
 * Playing a case through the product: the scripted model's steps (read the test, the case's edits
 * through Write / Edit, removals through `rm`, the test command through Bash, then "done" for as long
 * as it is asked) and the repository config (the test command, its Bash allow rule).
 */
import { parseRepoConfig, type RepoConfig } from '../../../src/config/repo-config.js';
import { text, toolUse, type ScriptFn, type ScriptStep } from '../../../src/model/scripted.js';
import type { CorpusCase } from './types.js';

/**
 * The model's script for `c`: the edits, then the test command, then "Done" on every later turn (a stop
 * block asks again; the script keeps saying done). `command` overrides the case's command (e.g. a Python
 * interpreter the sandbox can see).
 */
export function scriptFor(c: CorpusCase, command = c.command, shell: (step: string) => string = (s) => s): ScriptFn {
  const steps: ScriptStep[] = c.edits.map((e) => {
    if (e.kind === 'bash') return { content: [toolUse('Bash', { command: shell(e.command) })] };
    if (e.kind === 'write') return { content: [toolUse('Write', { file_path: e.path, content: e.content })] };
    if (e.kind === 'edit') return { content: [toolUse('Edit', { file_path: e.path, old_string: e.old, new_string: e.new })] };
    return { content: [toolUse('Bash', { command: `rm ${e.path}` })] };
  });
  // Edit and Write on an existing file need a full read first: read every base file the edits change, up front.
  const reads = [
    ...new Set(c.edits.flatMap((e) => (e.kind !== 'remove' && e.kind !== 'bash' && c.base[e.path] !== undefined ? [e.path] : []))),
  ].map((p): ScriptStep => ({ content: [toolUse('Read', { file_path: p })] }));
  const all = [...reads, ...steps, { content: [toolUse('Bash', { command })] }];
  return (_req, turn) => all[turn - 1] ?? { content: [text('Done: the tests pass.')] };
}

/** The first word pair of the command as an allow rule: `npx jest --ci` → `Bash(npx jest:*)`. */
function allowRule(command: string): string {
  const words = command.split(/\s+/);
  const n = ['npx', 'npm', 'python3', 'go', 'cargo'].includes(words[0]?.split('/').pop() ?? '') ? 2 : 1;
  return `Bash(${words.slice(0, n).join(' ')}:*)`;
}

/** The repository config for `c`: its test command and the Bash rules the script needs (its shell steps' too). */
export function configFor(c: CorpusCase, command = c.command, extra = '', shell: (step: string) => string = (s) => s): RepoConfig {
  const steps = c.edits.flatMap((e) => (e.kind === 'bash' ? [allowRule(shell(e.command))] : []));
  const allow = [...new Set([allowRule(command), 'Bash(rm:*)', ...steps])];
  return parseRepoConfig(
    // verify.hunk_runs: 0: the untested-hunk runs come after a verified verdict and never change it
    // (hunks/final-step.ts); a verdict corpus has no use for them, and test/verification covers them.
    `test:\n  command: ${JSON.stringify(command)}\npermissions:\n  allow: ${JSON.stringify(allow)}\nverify:\n  hunk_runs: 0\ngates:\n  max_stop_blocks: 1\n${extra}`,
  );
}
