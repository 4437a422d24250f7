/** The CLI's subcommands as one table: name, description, argument, options, and the function that runs it. */
import type { OptionValues } from 'commander';
import { runCommand } from './run-command.js';
import { runDemo } from './demo.js';
import { reportCommand } from './report-command.js';
import { serveCommand } from './serve.js';
import { workerCommand } from './worker-command.js';
import { sweepCommand } from './sweep-command.js';
import { initCommand } from './init-command.js';
import { doctorCommand } from './doctor-command.js';
import { configCheckCommand } from './config-check-command.js';
import { gcCommand } from './gc-command.js';
import { backtestCommand } from './backtest-command.js';
import { verifyCommand } from './verify-command.js';
import { outcomesCommand } from './outcomes-command.js';

/** An option as commander takes it: flags, description and (optionally) its default. */
export type OptionSpec = readonly [flags: string, description: string, defaultValue?: string];

export interface CommandSpec {
  /** The command's name; `group sub` (e.g. `config check`) for a subcommand of a group in COMMAND_GROUPS. */
  name: string;
  description: string;
  /** A required positional argument: its name (`<run-dir>`) and description. */
  argument?: readonly [name: string, description: string];
  options?: readonly OptionSpec[];
  /** Runs the command with its parsed options (and the argument, when it has one); resolves to the exit code. */
  run: (flags: OptionValues, argument: string) => Promise<number>;
}

const CONFIG_OPT: OptionSpec = ['--config <file>', 'config file (default <repo>/.github/proofpr.yml)'];
const MODEL_OPT: OptionSpec = ['--model <id>', 'model id (overrides PROOFPR_MODEL and the config)'];
const repoOpt = (what: string): OptionSpec => ['--repo <dir>', what, '.'];

/** Groups of subcommands (`proofpr config check`) and their descriptions. */
export const COMMAND_GROUPS: Readonly<Record<string, string>> = { config: 'configuration commands' };

/** Every subcommand, in the order `proofpr --help` lists them: the work (run, serve, worker, sweep), then what is around it. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    description:
      'run the agent on a task in a fresh worktree of --repo and commit the result on a new branch (or, with --github-repo, fix an issue and open the PR)',
    options: [
      repoOpt('git repository to work on'),
      ['--prompt <text>', 'the task, as text'],
      ['--issue-file <file>', 'the task, as JSON { "number", "title", "body" }'],
      [
        '--github-repo <owner/name>',
        'work on this GitHub repository (with --issue; token from GITHUB_TOKEN): clone, run, push, open the PR',
      ],
      ['--issue <n>', 'the issue of --github-repo to fix'],
      CONFIG_OPT,
      MODEL_OPT,
      ['--max-turns <n>', 'maximum model requests'],
      ['--max-cost-usd <x>', 'maximum spend in USD'],
      ['--timeout-min <n>', 'wall-clock limit in minutes'],
      ['--out <dir>', 'run folder (default $PROOFPR_HOME/runs/<run-id>)'],
      ['--json', 'print the evidence object as the last stdout line'],
      ['--keep-worktree', 'leave the worktree in place after the run (for inspection)'],
    ],
    run: (flags) => runCommand(flags),
  },
  {
    name: 'serve',
    description: 'the GitHub App (Probot) with its queue and workers in one process (with REDIS_URL: webhooks only)',
    run: () => serveCommand(),
  },
  { name: 'worker', description: 'a queue worker only (needs REDIS_URL)', run: () => workerCommand() },
  {
    name: 'sweep',
    description: 'run the configured maintenance sweeps once (for cron / scheduled workflows)',
    options: [
      ['--name <name...>', 'only these sweeps (default: all)'],
      repoOpt('git repository to work on'),
      CONFIG_OPT,
      MODEL_OPT,
      ['--github-repo <owner/name>', 'push and open PRs on this repository (token from GITHUB_TOKEN)'],
    ],
    run: (flags) => sweepCommand(flags),
  },
  {
    name: 'demo',
    description: 'the whole flow offline on a small example repository; the model turns are replayed, everything else is real',
    run: async () => (await runDemo()).exitCode,
  },
  {
    name: 'init',
    description: 'write .github/proofpr.yml with the detected test and setup commands (and, with --workflow, the Action workflow)',
    options: [
      repoOpt('git repository to set up'),
      ['--workflow', 'also write .github/workflows/proofpr.yml'],
      ['--force', 'overwrite existing files'],
    ],
    run: (flags) => initCommand(flags),
  },
  {
    name: 'doctor',
    description: 'check the machine (node, git, ripgrep, bubblewrap), the API key and model, the config, and a dry test run',
    options: [repoOpt('git repository to check'), CONFIG_OPT],
    run: (flags) => doctorCommand(flags),
  },
  {
    name: 'config check',
    description: 'validate .github/proofpr.yml deeply (for CI): exit 0 when valid, 2 naming each bad key',
    options: [repoOpt('git repository whose config to check'), CONFIG_OPT],
    run: (flags) => configCheckCommand(flags),
  },
  {
    name: 'gc',
    description:
      'retention for $PROOFPR_HOME: old run folders, worktrees of runs that are gone, unused mirrors, dependency cache entries, empty proofpr/* branches (WIP branches kept)',
    options: [
      ['--older-than-days <n>', 'age of run folders and mirrors to remove', '30'],
      ['--dep-cache-max-mb <n>', 'size bound of the dependency cache (least recently used entries go first)', '5120'],
      ['--repo <dir>', 'also delete the empty proofpr/* branches of this repository (left by `proofpr run`)'],
      ['--dry-run', 'say what would go, remove nothing'],
    ],
    run: (flags) => gcCommand(flags),
  },
  {
    name: 'backtest',
    description:
      'would proofpr have verified your last fixes? replays recent fix commits of --repo (upstream change, then its test change alone) through the harness; prints a table, writes backtest.json',
    options: [
      repoOpt('git repository whose history to replay'),
      ['--last <n>', 'how many recent fix commits (code and tests changed, the test change failing on the parent)', '10'],
      ['--out <dir>', 'folder for backtest.json and the run folders (default $PROOFPR_HOME/backtest)'],
      ['--json', 'print the report object as the last stdout line'],
      ['--model [id]', 'also let the agent fix each case from the commit message; the held-out upstream tests judge it'],
      ['--config <file>', "a proofpr.yml for every case (setup.command, test.command…) instead of each parent's own"],
    ],
    run: (flags) => backtestCommand(flags),
  },
  {
    name: 'verify',
    description:
      'verify any change with no model: a base and head of --repo, or a pull request (--github-repo --pr): the baseline on the base, the final run on the head, the base tests on the head, the new tests on the base; writes the run folder, nothing to the repository',
    options: [
      ['--repo <dir>', 'git repository holding --base and --head (default .)'],
      ['--base <ref>', 'the commit the change starts from (its merge base with --head is used)'],
      ['--head <ref>', 'the change to verify'],
      ['--github-repo <owner/name>', 'verify a pull request of this GitHub repository (token from GITHUB_TOKEN, API from GITHUB_API_URL)'],
      ['--pr <n>', 'the pull request of --github-repo'],
      ['--config <file>', "a proofpr.yml to judge with (default: the base's .github/proofpr.yml)"],
      ['--out <dir>', 'run folder (default $PROOFPR_HOME/runs/<run-id>)'],
      ['--json', 'print the evidence object as the last stdout line'],
    ],
    run: (flags) => verifyCommand(flags),
  },
  {
    name: 'outcomes',
    description:
      'what became of the pull requests proofpr opened or verified: merged, reverted later, closed unmerged, open; by verdict (token from GITHUB_TOKEN)',
    options: [
      ['--github-repo <owner/name>', 'the GitHub repository (default GITHUB_REPOSITORY)'],
      ['--since <date>', 'pull requests created since this date (2026-11-01) or this many days back (30d)', '30d'],
      ['--json', 'also print the table and every pull request as one JSON line'],
    ],
    run: (flags) => outcomesCommand(flags),
  },
  {
    name: 'report',
    description: '(re)render RUN_DIR/report.html and summary.md from RUN_DIR/evidence.json + transcript.jsonl',
    argument: ['<run-dir>', 'a run folder'],
    run: (_flags, runDir) => reportCommand(runDir),
  },
];
