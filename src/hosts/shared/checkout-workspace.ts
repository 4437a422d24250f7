/**
 * WorkspacePort over a checkout (the Action's, the CLI sweep's): the checkout is the repository (no mirror). For follow-ups on a
 * proofpr PR its branch is fetched into refs/remotes/origin/ first; pushes go through the workspace's
 * pushBranch with the token as an http.extraheader.
 */
import type { WorkspacePort } from '../../usecases/ports.js';
import { git } from '../../workspace/git.js';
import { pushBranch } from '../../workspace/push.js';
import { changedPaths } from '../../workspace/changed-paths.js';
import { changedHunks } from '../../workspace/changed-hunks.js';

export function checkoutWorkspace(checkout: string, opts: { fetchBranches?: string[] } = {}): WorkspacePort {
  return {
    async ensureMirror({ url, token }) {
      for (const b of opts.fetchBranches ?? []) {
        await git(['fetch', '--quiet', '--no-tags', url, `+refs/heads/${b}:refs/remotes/origin/${b}`], {
          cwd: checkout,
          ...(token ? { token } : {}),
        });
      }
      return { dir: checkout };
    },
    pushBranch: (o) => pushBranch(o),
    changedPaths: (o) => changedPaths(o),
    changedHunks: (o) => changedHunks(o),
  };
}
