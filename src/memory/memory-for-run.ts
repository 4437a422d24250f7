/** The memory index a run's prompt gets, as a RunTaskInput spread; a store that fails costs the run nothing. */
import { logger } from '../log.js';
import { renderMemoryIndex } from './memory-index.js';
import type { MemoryStore } from './types.js';

const log = logger('memory');

export async function memoryForRun(store: MemoryStore | undefined, repo: string): Promise<{ memoryIndex?: string }> {
  if (!store) return {};
  try {
    const index = renderMemoryIndex(await store.list(repo));
    return index ? { memoryIndex: index } : {};
  } catch (e) {
    log.warn({ repo, err: (e as Error).message }, 'memory could not be read: the run goes on without it');
    return {};
  }
}
