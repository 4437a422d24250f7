import { Command, CommanderError } from 'commander';
import { runCommand } from './run-command.js';
import { runDemo } from './demo.js';
import { reportCommand } from './report-command.js';
import { serveCommand } from './serve.js';
import { workerCommand } from './worker-command.js';
import { sweepCommand } from './sweep-command.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './package-version.js';
import { initCommand } from './init-command.js';
import { doctorCommand } from './doctor-command.js';
import { configCheckCommand } from './config-check-command.js';
import { gcCommand } from './gc-command.js';

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

  workCommands(program, done);
  setupCommands(program, done);

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

/** The commands that do work: run, serve, worker, sweep. */
function workCommands(program: Command, done: (code: number) => void): void {
  program
    .command('run')
    .description('run the agent on a task in a fresh worktree of --repo and commit the result on a new branch (or, with --github-repo, fix an issue and open the PR)')
    .option('--repo <dir>', 'git repository to work on', '.')
    .option('--prompt <text>', 'the task, as text')
    .option('--issue-file <file>', 'the task, as JSON { "number", "title", "body" }')
    .option('--github-repo <owner/name>', 'work on this GitHub repository (with --issue; token from GITHUB_TOKEN): clone, run, push, open the PR')
    .option('--issue <n>', 'the issue of --github-repo to fix')
    .option('--config <file>', 'config file (default <repo>/.github/proofpr.yml)')
    .option('--model <id>', 'model id (overrides PROOFPR_MODEL and the config)')
    .option('--max-turns <n>', 'maximum model requests')
    .option('--max-cost-usd <x>', 'maximum spend in USD')
    .option('--timeout-min <n>', 'wall-clock limit in minutes')
    .option('--out <dir>', 'run folder (default $PROOFPR_HOME/runs/<run-id>)')
    .option('--json', 'print the evidence object as the last stdout line')
    .option('--keep-worktree', 'leave the worktree in place after the run (for inspection)')
    .action(async (flags) => {
      done(await runCommand(flags));
    });

  program
    .command('serve')
    .description('the GitHub App (Probot) with its queue and workers in one process (with REDIS_URL: webhooks only)')
    .action(async () => {
      done(await serveCommand());
    });

  program
    .command('worker')
    .description('a queue worker only (needs REDIS_URL)')
    .action(async () => {
      done(await workerCommand());
    });

  program
    .command('sweep')
    .description('run the configured maintenance sweeps once (for cron / scheduled workflows)')
    .option('--name <name...>', 'only these sweeps (default: all)')
    .option('--repo <dir>', 'git repository to work on', '.')
    .option('--config <file>', 'config file (default <repo>/.github/proofpr.yml)')
    .option('--model <id>', 'model id (overrides PROOFPR_MODEL and the config)')
    .option('--github-repo <owner/name>', 'push and open PRs on this repository (token from GITHUB_TOKEN)')
    .action(async (flags) => {
      done(await sweepCommand(flags));
    });
}

/** The commands around the work: demo, init, doctor, config check, report. */
function setupCommands(program: Command, done: (code: number) => void): void {
  program
    .command('demo')
    .description('the whole flow offline on a small example repository; the model turns are replayed, everything else is real')
    .action(async () => {
      done((await runDemo()).exitCode);
    });

  program
    .command('init')
    .description('write .github/proofpr.yml with the detected test and setup commands (and, with --workflow, the Action workflow)')
    .option('--repo <dir>', 'git repository to set up', '.')
    .option('--workflow', 'also write .github/workflows/proofpr.yml')
    .option('--force', 'overwrite existing files')
    .action(async (flags) => {
      done(await initCommand(flags));
    });

  program
    .command('doctor')
    .description('check the machine (node, git, ripgrep, bubblewrap), the API key and model, the config, and a dry test run')
    .option('--repo <dir>', 'git repository to check', '.')
    .option('--config <file>', 'config file (default <repo>/.github/proofpr.yml)')
    .action(async (flags) => {
      done(await doctorCommand(flags));
    });

  const config = program.command('config').description('configuration commands');
  config
    .command('check')
    .description('validate .github/proofpr.yml deeply (for CI): exit 0 when valid, 2 naming each bad key')
    .option('--repo <dir>', 'git repository whose config to check', '.')
    .option('--config <file>', 'config file (default <repo>/.github/proofpr.yml)')
    .action(async (flags) => {
      done(await configCheckCommand(flags));
    });

  program
    .command('gc')
    .description('retention for $PROOFPR_HOME: old run folders, worktrees of runs that are gone, unused mirrors, dependency cache entries, empty proofpr/* branches (WIP branches kept)')
    .option('--older-than-days <n>', 'age of run folders and mirrors to remove', '30')
    .option('--dep-cache-max-mb <n>', 'size bound of the dependency cache (least recently used entries go first)', '5120')
    .option('--repo <dir>', 'also delete the empty proofpr/* branches of this repository (left by `proofpr run`)')
    .option('--dry-run', 'say what would go, remove nothing')
    .action(async (flags) => {
      done(await gcCommand(flags));
    });

  program
    .command('report')
    .description('(re)render RUN_DIR/report.html and summary.md from RUN_DIR/evidence.json + transcript.jsonl')
    .argument('<run-dir>', 'a run folder')
    .action(async (runDir: string) => {
      done(await reportCommand(runDir));
    });
}
