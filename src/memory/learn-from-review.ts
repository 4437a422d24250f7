/**
 * The learning step (a job of its own in the App, so no webhook waits on a model): a review proofpr may
 * learn from → the extraction request → at most one entry in the repository's memory → one reply on the
 * PR saying what was kept and how to remove it. A review that teaches nothing gets no reply.
 */
import type { GitHubPort } from '../github/port.js';
import type { ModelClient } from '../model/model-client.js';
import { extractMemory } from './extract-memory.js';
import { memoryLine } from './memory-index.js';
import { memoryReplies } from './memory-replies.js';
import type { MemoryStore, ReviewNote } from './types.js';

export interface LearnDeps {
  github: GitHubPort;
  memory: MemoryStore;
  model: ModelClient;
  modelId: string;
  /** The comment prefix (config `trigger`), for the reply's `/agent forget N`. */
  trigger: string;
  signal?: AbortSignal;
}

export type LearnOutcome = { kept: true; number: number } | { kept: false; why: string };

export async function learnFromReview(note: ReviewNote, deps: LearnDeps): Promise<LearnOutcome> {
  const repo = `${note.owner}/${note.repo}`;
  const res = await extractMemory(deps.model, deps.modelId, note, deps.signal);
  if (!res.entry) return { kept: false, why: res.why };
  const added = await deps.memory.add(repo, res.entry);
  if (!added.added) return { kept: false, why: `the same rule is entry ${added.duplicate} already` };
  await deps.github.createComment(note.pr, memoryReplies.kept(memoryLine(res.entry, added.number), added.number, deps.trigger));
  return { kept: true, number: added.number };
}
