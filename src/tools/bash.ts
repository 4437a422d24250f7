import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolErrorKind } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { compoundCap } from './bash-compound-cap.js';
import { wholeNumber } from './lib/whole-number.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

const input = z.strictObject({
  command: z.string().min(1).describe('The bash command line to run in the repository root.'),
  timeout: wholeNumber(
    1000,
    BASH_MAX_TIMEOUT_MS,
    `Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}).`,
  ),
  description: z.string().optional().describe('A short description of what the command does (5-10 words), for the progress display.'),
});

export const bashTool = defineTool({
  name: 'Bash',
  description: descriptions.Bash,
  input,
  kind: 'execute',
  access: ({ command }) => ({ paths: [], patterns: [], command }),
  async execute({ command, timeout, description }, ctx) {
    const tooMany = compoundCap(command);
    if (tooMany) return tooMany;
    const timeoutMs = timeout ?? BASH_DEFAULT_TIMEOUT_MS;
    const startedAt = new Date();
    let res;
    try {
      // The whole output streams to tool-output/ as it arrives; the registry keeps it only when it is over the budget.
      const outputFile = join(ctx.runDir, 'tool-output', `${ctx.callId.replace(/[^A-Za-z0-9_.-]/g, '_')}.txt`);
      res = await ctx.exec({ command, cwd: ctx.root, timeoutMs, signal: ctx.signal, outputFile });
    } catch (err) {
      const endedAt = new Date();
      return {
        forModel: `The command could not be started: ${(err as Error).message}`,
        isError: true,
        errorKind: 'exec_failed',
        effects: [
          { type: 'exec', command, exitCode: null, startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString(), timedOut: false },
        ],
      };
    }
    const endedAt = new Date();
    const body = res.output === '' ? '(no output)' : res.output.replace(/\n$/, '');
    let status: string;
    let errorKind: ToolErrorKind | undefined;
    if (res.timedOut) {
      status = `Command timed out after ${timeoutMs} ms and was killed (with its child processes). Use a longer timeout (max ${BASH_MAX_TIMEOUT_MS}) or a faster command.`;
      errorKind = 'timeout';
    } else if (res.cancelled) {
      status = 'Command was cancelled.';
      errorKind = 'cancelled';
    } else {
      status = `Exit code: ${res.exitCode ?? 'none (killed by a signal)'}`;
      if (res.exitCode !== 0) errorKind = 'exit_code';
      // Some programs fail without a word (git stash when it cannot write the index): say so, never leave a bare code.
      if (res.exitCode !== 0 && res.output.trim() === '')
        status +=
          ' (the command failed without printing why: check that what it writes, such as files or git state, is writable, or run a narrower command to see the error)';
    }
    const truncated = res.truncated
      ? `\n(output was cut in the middle: it exceeded the capture limit${res.outputPath ? `; the full output is in ${res.outputPath}` : ''})`
      : '';
    return {
      forModel: `${body}${truncated}\n${status}`,
      forHuman: `Bash ${description ?? command}`.slice(0, 200),
      isError: errorKind !== undefined,
      ...(errorKind ? { errorKind } : {}),
      effects: [
        {
          type: 'exec',
          command,
          exitCode: res.exitCode,
          startedAt: startedAt.toISOString(),
          endedAt: endedAt.toISOString(),
          timedOut: res.timedOut,
        },
      ],
      meta: { durationMs: res.durationMs, sandbox: res.sandbox },
      ...(res.outputPath ? { outputPath: res.outputPath } : {}),
    };
  },
});
