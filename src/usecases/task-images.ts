/**
 * The images of a run's task: GitHub attachments in the issue (or PR) body and the triggering comment,
 * fetched with the installation token within the limits (github/issue-images.ts). The run gets the files;
 * the evidence lists each one's URL and size. A download that fails leaves that image out, never the run.
 */
import type { GitHubPort } from '../github/port.js';
import { fetchIssueImages, type ImageLimits } from '../github/issue-images.js';
import type { Trigger } from '../github/trigger.js';
import type { TaskImage } from '../run/run-task-types.js';
import type { RunFolderPatch } from '../run/update-run-folder.js';
import { logger } from '../log.js';

const log = logger('task-images');

export interface TaskImages {
  images: TaskImage[];
  /** evidence.images for the run folder (absent when there are none). */
  folder?: RunFolderPatch;
}

/** The web root (https://github.com or the GHE host) of this repository, from its own web URLs. */
function webRootOf(github: Pick<GitHubPort, 'htmlUrl'>): string {
  return new URL(github.htmlUrl(1)).origin;
}

export async function taskImages(
  github: Pick<GitHubPort, 'htmlUrl'>,
  t: Pick<Trigger, 'body' | 'instructions'>,
  token: string,
  limits?: ImageLimits,
): Promise<TaskImages> {
  const got = await fetchIssueImages([t.body, t.instructions], { webUrl: webRootOf(github), token, ...(limits ? { limits } : {}) });
  if (got.skipped.length) log.info({ skipped: got.skipped }, 'attached images left out');
  if (got.images.length === 0) return { images: [] };
  return {
    images: got.images,
    folder: { evidence: { images: got.images.map((i) => ({ url: i.url, bytes: i.bytes })) } },
  };
}
