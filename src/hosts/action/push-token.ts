/**
 * Is the Action's `github_token` the workflow's own GITHUB_TOKEN? A pull request opened with it starts its
 * pull_request workflows held for a maintainer's approval (GitHub's rule since 2026-06-11); when none
 * appears, that token is the likely cause, and the wait for a first run is short.
 *
 * The runner never passes the default `${{ github.token }}` in any other variable, so in order:
 * 1. GITHUB_TOKEN in the step's environment (a workflow that sets it): the input equals it, or not;
 * 2. a user token by its prefix (ghp_, github_pat_, gho_, ghu_): not the workflow's;
 * 3. the token's identity (GraphQL `viewer`, which installation tokens may read): `github-actions[bot]` is
 *    the workflow token; an App's installation token (also `ghs_…`) answers `<app-slug>[bot]`.
 * When none of these answers, what the workflow runs say decides (the watch is the same for every token).
 */

export const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';

export interface PushToken {
  workflowToken: boolean;
  /** How that was decided (for the log). */
  why: string;
}

/** `query { viewer { login } }` with the token; undefined when it cannot be read. */
export type ViewerLogin = () => Promise<string | undefined>;

export async function pushToken(token: string, env: NodeJS.ProcessEnv, viewer: ViewerLogin): Promise<PushToken> {
  const envToken = env.GITHUB_TOKEN?.trim();
  if (envToken)
    return envToken === token
      ? { workflowToken: true, why: 'the github_token input equals GITHUB_TOKEN' }
      : { workflowToken: false, why: 'the github_token input is not GITHUB_TOKEN' };
  if (/^(ghp_|github_pat_|gho_|ghu_)/.test(token)) return { workflowToken: false, why: 'the github_token input is a user token' };
  const login = await viewer().catch(() => undefined);
  if (login === undefined) return { workflowToken: false, why: "the github_token input's identity could not be read" };
  return login === WORKFLOW_TOKEN_LOGIN
    ? { workflowToken: true, why: `the github_token input acts as ${login} (the workflow's GITHUB_TOKEN)` }
    : { workflowToken: false, why: `the github_token input acts as ${login}` };
}

/** The viewer's login through an Octokit's GraphQL client. */
export function graphqlViewer(octokit: { graphql: (q: string) => Promise<unknown> }): ViewerLogin {
  return async () => {
    const res = (await octokit.graphql('query { viewer { login } }')) as { viewer?: { login?: unknown } } | undefined;
    const login = res?.viewer?.login;
    return typeof login === 'string' && login !== '' ? login : undefined;
  };
}
