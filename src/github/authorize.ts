/**
 * Authorization asks GitHub for the user's repository permission (CONTRACT §9): `author_association`
 * in the payload is never trusted (a read-only collaborator also shows as COLLABORATOR).
 */
import type { GitHubPort } from './port.js';

export interface AuthorizeResult {
  ok: boolean;
  permission: string;
  roleName?: string;
}

/** True when the permission or the role name (maintain, triage, custom roles) is in `allowed`. */
export async function authorize(
  github: Pick<GitHubPort, 'permission'>,
  user: string,
  allowed: readonly string[],
): Promise<AuthorizeResult> {
  let res: { permission: string; roleName?: string };
  try {
    res = await github.permission(user);
  } catch {
    res = { permission: 'none' };
  }
  const ok = allowed.includes(res.permission) || (res.roleName !== undefined && allowed.includes(res.roleName));
  return { ok, ...res };
}
