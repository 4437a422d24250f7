import { Command, CommanderError, type OptionValues } from 'commander';
import { COMMANDS, COMMAND_GROUPS } from './commands.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './package-version.js';

/** Every subcommand resolves to an exit code; usage errors are 2, internal errors 1. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const done = (c: number) => {
    code = c;
  };
  const program = new Command('proofpr')
    .description('A coding-agent harness that opens a pull request only when its own checks prove the work.')
    .version(packageVersion(), '-V, --version', 'print the version of proofpr')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });

  registerCommands(program, done);

  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      process.stderr.write(`proofpr: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`proofpr: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

/** Registers every command of the table (groups made on first use); each one's exit code goes to `done`. */
function registerCommands(program: Command, done: (code: number) => void): void {
  const groups = new Map<string, Command>();
  for (const spec of COMMANDS) {
    const [first, sub] = spec.name.split(' ') as [string, string | undefined];
    let parent = program;
    if (sub !== undefined) {
      parent = groups.get(first) ?? program.command(first).description(COMMAND_GROUPS[first] ?? '');
      groups.set(first, parent);
    }
    const cmd = parent.command(sub ?? first).description(spec.description);
    if (spec.argument) cmd.argument(...spec.argument);
    for (const [flags, description, defaultValue] of spec.options ?? []) {
      if (defaultValue === undefined) cmd.option(flags, description);
      else cmd.option(flags, description, defaultValue);
    }
    cmd.action(async (...args: unknown[]) => {
      // commander passes the argument first when there is one, then the options.
      const [argument, flags] = spec.argument ? [args[0] as string, args[1] as OptionValues] : ['', args[0] as OptionValues];
      done(await spec.run(flags, argument));
    });
  }
}
