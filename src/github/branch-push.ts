/**
 * A `push` webhook to a branch, parsed once (zod on the fields read): which branch moved, to which commit,
 * in which repository and installation. Tags and deletions are no branch moves. Used to update proofpr's
 * PRs whose base moved (`ci.auto_update`); the config refresh reads the payload on its own (config-push.ts).
 */
import { z } from 'zod';

export interface BranchPush {
  owner: string;
  repo: string;
  installationId?: number;
  /** The branch's name (without refs/heads/). */
  branch: string;
  /** The branch's new tip. */
  sha: string;
  deliveryId: string;
  /** When the webhook was received (ISO): the time of the request it stands for. */
  at: string;
}

const pushPayload = z.object({
  ref: z.string(),
  after: z.string().regex(/^[0-9a-f]{40}$/),
  deleted: z.boolean().optional(),
  repository: z.object({ name: z.string(), owner: z.object({ login: z.string() }) }),
  installation: z.object({ id: z.number() }).optional(),
});

const BRANCH_REF = 'refs/heads/';

/** The branch a push moved, or undefined (a tag, a deleted branch, a payload that is not a push). */
export function parseBranchPush(payload: unknown, deliveryId: string, now: Date = new Date()): BranchPush | undefined {
  const res = pushPayload.safeParse(payload);
  if (!res.success) return undefined;
  const p = res.data;
  if (!p.ref.startsWith(BRANCH_REF) || p.deleted === true || /^0+$/.test(p.after)) return undefined;
  return {
    owner: p.repository.owner.login,
    repo: p.repository.name,
    ...(p.installation ? { installationId: p.installation.id } : {}),
    branch: p.ref.slice(BRANCH_REF.length),
    sha: p.after,
    deliveryId,
    at: now.toISOString(),
  };
}
