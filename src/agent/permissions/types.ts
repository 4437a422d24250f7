/** The permission gate every tool call passes before it has any effect (deny by default). */
export interface PermissionDecision {
  behavior: 'allow' | 'deny';
  /** The rule that decided, e.g. 'builtin-deny:Bash(curl:*)', 'config-allow:Bash(npm test:*)', 'safe-list:git status', 'default-deny'. */
  rule: string;
  /** For a denial: what the model is told (what was refused, why, what to do instead). */
  reason: string;
}

export interface PermissionPolicy {
  /** `input` is the tool's validated input object. Never throws: an internal failure is a deny. */
  check(tool: string, input: unknown): Promise<PermissionDecision>;
  /** Told after an allowed call ran (a command may have changed what git ignores, for example). */
  executed?(tool: string, input: unknown): void;
}
