/** IssuesPort over REST: comments, reactions, labels. */
import type { IssueComment, IssuesPort } from '../port.js';
import { reactionEndpoint } from '../reaction-endpoint.js';
import { repoParams, unlessStatus, type PortContext } from './rest-octokit.js';

export function issueMethods(ctx: PortContext): IssuesPort {
  const { octokit } = ctx;
  const r = repoParams(ctx);
  return {
    async getIssue(number) {
      const res = await unlessStatus(octokit.rest.issues.get({ ...r, issue_number: number }));
      if (!res) return undefined;
      const d = res.data;
      return {
        number: d.number,
        title: d.title,
        body: d.body ?? '',
        state: d.state,
        isPullRequest: d.pull_request !== undefined && d.pull_request !== null,
      };
    },
    async addReaction(target, content) {
      const ep = reactionEndpoint(target);
      await octokit.request(ep.route, { ...r, ...ep.params, content });
    },
    async createComment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({ ...r, issue_number: issue, body });
      return { id: data.id, url: data.html_url };
    },
    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ ...r, comment_id: commentId, body });
    },
    async listComments(issue) {
      const all = await octokit.paginate(octokit.rest.issues.listComments, { ...r, issue_number: issue, per_page: 100 });
      return all.map((c): IssueComment => {
        const comment: IssueComment = {
          id: c.id,
          body: c.body ?? '',
          user: c.user?.login ?? 'ghost',
          createdAt: c.created_at,
          updatedAt: c.updated_at,
        };
        if (c.user?.type) comment.userType = c.user.type;
        return comment;
      });
    },
    async addLabels(issue, labels) {
      // GitHub refuses an empty list (422); nothing to add is no request.
      if (labels.length === 0) return;
      await octokit.rest.issues.addLabels({ ...r, issue_number: issue, labels });
    },
  };
}
