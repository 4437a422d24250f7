/** What a queued run carries: the parsed trigger, the config validated when it fired, and its status comment. */
import type { RepoConfig } from '../config/repo-config.js';
import type { Trigger } from '../github/trigger.js';

export interface FixJob {
  mode: 'fix' | 'plan' | 'follow-up';
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
}
