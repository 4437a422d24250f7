/**
 * The permission policy as the wall tests meet it (test/permissions, test/security, test/tools): policies
 * over one worktree made before all tests of a file, and the tables that ask them one command at a time.
 */
import { beforeAll, expect, it } from '@jest/globals';
import { createPolicy, type PolicyOptions } from '../../src/agent/permissions/create-policy.js';
import type { PermissionDecision, PermissionPolicy } from '../../src/agent/permissions/types.js';

export type Behavior = PermissionDecision['behavior'];

/** createPolicy over `root` in default mode with no rules, `options` on top. */
export function policyOver(root: string, options: Partial<PolicyOptions> = {}): Promise<PermissionPolicy> {
  return createPolicy({ root, mode: 'default', allow: [], deny: [], ...options });
}

/**
 * Named policies over the worktree `worktree()` makes (before all tests of the file), each with its own
 * options (see policyOver). The policies returned stand for the real ones once they are made, so a test
 * file can name them at its top: `const { policy, plan } = usePolicies(makeRepo, { policy: {}, plan: { mode: 'plan' } })`.
 */
export function usePolicies<N extends string>(
  worktree: () => string,
  options: Record<N, Partial<PolicyOptions>>,
): Record<N, PermissionPolicy> {
  const made = new Map<string, PermissionPolicy>();
  beforeAll(async () => {
    const root = worktree();
    for (const [name, opts] of Object.entries<Partial<PolicyOptions>>(options)) made.set(name, await policyOver(root, opts));
  });
  const real = (name: string): PermissionPolicy => {
    const p = made.get(name);
    if (!p) throw new Error(`usePolicies: policy "${name}" is made before all tests; ask it inside a test`);
    return p;
  };
  const names = Object.keys(options) as N[];
  return Object.fromEntries(
    names.map((name): [N, PermissionPolicy] => [
      name,
      { check: (tool, input) => real(name).check(tool, input), executed: (tool, input) => real(name).executed?.(tool, input) },
    ]),
  ) as Record<N, PermissionPolicy>;
}

/** The behavior `policy` gives a Bash command. */
export function bashBehavior(policy: PermissionPolicy): (command: string) => Promise<Behavior> {
  return async (command) => (await policy.check('Bash', { command })).behavior;
}

/** One test a command (`title` names it with %s): `policy` must answer each Bash command with `behavior`. */
export function itDecides(title: string, behavior: Behavior, commands: string[], policy: PermissionPolicy): void {
  const decide = bashBehavior(policy);
  it.each(commands)(title, async (command) => {
    expect(await decide(command)).toBe(behavior);
  });
}

/** Inside one test: `policy` answers every Bash command with `behavior` (a failure names the command). */
export async function expectBehaviors(policy: PermissionPolicy, behavior: Behavior, commands: string[]): Promise<void> {
  const decide = bashBehavior(policy);
  for (const command of commands) expect({ command, behavior: await decide(command) }).toEqual({ command, behavior });
}
