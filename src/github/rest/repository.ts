/** RepositoryPort over REST: permissions, branches, the config file (Probot's loader), git access, URLs. */
import { composeConfigGet } from '@probot/octokit-plugin-config';
import type { RepositoryPort } from '../port.js';
import { extendConfig } from './extend-config.js';
import { repoParams, unlessStatus, type PortContext } from './rest-octokit.js';

export function repositoryMethods(ctx: PortContext): RepositoryPort {
  const { octokit, owner, repo, webUrl } = ctx;
  const r = repoParams(ctx);
  return {
    owner,
    repo,
    async authenticatedUser() {
      // Installation tokens may not read /user (403): then nobody in particular is asking.
      const res = await octokit.rest.users.getAuthenticated().catch(() => undefined);
      return res ? { login: res.data.login, id: res.data.id } : undefined;
    },
    async permission(user) {
      // 404: not a collaborator; 403: the token may not read collaborators. Neither may trigger a run.
      const res = await unlessStatus(octokit.rest.repos.getCollaboratorPermissionLevel({ ...r, username: user }), [403, 404]);
      if (!res) return { permission: 'none' };
      const roleName = (res.data as { role_name?: string }).role_name;
      return roleName ? { permission: res.data.permission, roleName } : { permission: res.data.permission };
    },
    async getBranchSha(branch) {
      const res = await unlessStatus(octokit.rest.git.getRef({ ...r, ref: `heads/${branch}` }));
      return res?.data.object.sha;
    },
    async getDefaultBranch() {
      const { data } = await octokit.rest.repos.get(r);
      return data.default_branch;
    },
    async readConfig(ref) {
      // Probot's own loader (YAML, `_extends`, the org's .github repository), for every host.
      const { config, files } = await composeConfigGet(octokit as never, { ...r, path: ctx.configPath, ...(ref ? { branch: ref } : {}) });
      return files.some((f) => f.config !== null) ? config : null;
    },
    extendConfig: (config) => extendConfig(octokit, { owner, path: ctx.configPath }, config),
    async gitAccess() {
      // An installation Octokit mints (and caches) an installation token; a token Octokit returns its token.
      const auth = (await octokit.auth({ type: 'installation' })) as { token?: string };
      if (!auth.token) throw new Error('no token for git: the App must be installed on the repository (or pass a token)');
      return { url: `${webUrl}/${owner}/${repo}.git`, token: auth.token };
    },
    htmlUrl: (number) => `${webUrl}/${owner}/${repo}/issues/${number}`,
    branchUrl: (branch) => `${webUrl}/${owner}/${repo}/tree/${branch}`,
  };
}
