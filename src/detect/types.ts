/** What detection found for one command: the command line and one sentence saying why. */
export interface DetectedCommand {
  command: string;
  why: string;
}

export interface DetectedTest extends DetectedCommand {
  /** The runner the command calls, when known (jest, vitest, pytest, go, cargo, …). */
  runner?: string;
}

export interface DetectedSetup extends DetectedCommand {
  /** npm | pnpm | yarn-classic | yarn-berry | bun | go | cargo | pip */
  tool: string;
}

export interface DetectedCommands {
  test?: DetectedTest;
  setup?: DetectedSetup;
  /** Sentences about what was looked at and not used (a placeholder `scripts.test`, no lock file). */
  notes: string[];
}
