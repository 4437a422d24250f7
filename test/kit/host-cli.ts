/**
 * The built CLI (bin/proofpr.js, `npm run build` first) as a child process, for the CLI's integration and
 * e2e tests: one runner instead of a copy per file, and the scripted model that fixes the demo bug.
 */
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

export const BIN = resolve('bin/proofpr.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `proofpr <args>` with only PATH and HOME from this process, then `env` (a key set to undefined is left
 * out). Never rejects: a non-zero exit (or a kill, as 1) is `code`.
 */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
  return new Promise((ok) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { ...base, ...env } as NodeJS.ProcessEnv,
        cwd: opts.cwd,
        timeout: opts.timeoutMs ?? 180_000,
        encoding: 'utf8',
        maxBuffer: 32 * 1024 * 1024,
      },
      (err, stdout, stderr) => ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

/** A model script (for startFakeMessagesServer) that fixes the demo bug: read, edit the sort, run `testCommand`, stop. */
export function demoFixScript(testCommand = 'node --test'): (body: unknown, n: number) => unknown {
  return (_body, n) => {
    const tool = (name: string, input: unknown) => ({
      content: [{ type: 'tool_use', id: `toolu_${n}`, name, input }],
      stop_reason: 'tool_use',
    });
    switch (n) {
      case 1:
        return tool('Read', { file_path: 'src/stats.js' });
      case 2:
        return tool('Edit', {
          file_path: 'src/stats.js',
          old_string: 'const sorted = [...values].sort();',
          new_string: 'const sorted = [...values].sort((a, b) => a - b);',
        });
      case 3:
        return tool('Bash', { command: testCommand });
      default:
        return { content: [{ type: 'text', text: 'Fixed the numeric sort in median().' }], stop_reason: 'end_turn' };
    }
  };
}
