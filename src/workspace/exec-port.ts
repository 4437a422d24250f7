/**
 * The single door through which every process the agent starts goes (Bash tool, hooks, test runs).
 * The implementation (exec.ts) adds the scrubbed environment, the sandbox, the process-group kill and
 * the output cap; callers only describe what to run.
 */
export interface ExecRequest {
  /** A bash command line, run with `bash -c` in `cwd`. */
  command: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra variables on top of the scrubbed base environment (e.g. PROOFPR_FILE for hooks). */
  extraEnv?: Record<string, string>;
  /**
   * Variables derived from the environment the command would get (after scrubbing and extraEnv):
   * list-valued ones such as NODE_OPTIONS or PYTHONPATH are extended, not replaced (test observers).
   */
  extendEnv?: (env: Readonly<Record<string, string | undefined>>) => Record<string, string>;
  /** Text written to the process's stdin (hooks get their JSON event here). */
  stdin?: string;
  /**
   * Stream the interleaved output to this file in full as it arrives (up to OUTPUT_FILE_CAP_BYTES,
   * then a note), whatever the in-memory cap keeps. The folder is created when missing.
   */
  outputFile?: string;
  /**
   * 'fresh': the harness's own runs (baseline, final, differential). The command gets a HOME of its
   * own, holding only what setup.command left in the run's home (fresh-home.ts), so nothing an earlier
   * command wrote into its home (an `.npmrc`, a `.gitconfig`) is read; it is removed afterwards.
   */
  home?: 'fresh';
  /**
   * With home 'fresh', for a run of the base commit's own code only (the baseline): the Go build cache
   * it leaves becomes the run's seed; every later fresh home starts from a copy (build-cache-seed.ts).
   */
  seedBuildCache?: boolean;
}

/** The most a single call writes to its output file (100 MiB); past it the file ends with a note. */
export const OUTPUT_FILE_CAP_BYTES = 100 * 1024 * 1024;

export interface ExecResult {
  exitCode: number | null;
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Killed because the signal fired. */
  cancelled: boolean;
  durationMs: number;
  /** True when output went over the cap and was cut (the head and tail are kept). */
  truncated: boolean;
  /** Which isolation applied: 'bwrap' or 'none'. */
  sandbox: 'bwrap' | 'none';
  /** The request's outputFile, when it could be written (holds the whole output up to the cap). */
  outputPath?: string;
  /** Bytes of output the process wrote (stdout + stderr), whether or not they were kept. */
  outputBytes?: number;
}

export type ExecPort = (request: ExecRequest) => Promise<ExecResult>;
