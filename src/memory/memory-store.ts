/**
 * The memory of every repository over one blob backend (memory-blobs: SQLite, Redis, a file): entries
 * validated on the way in and out, capped in count and length, the same rule never kept twice.
 */
import { z } from 'zod';
import { MEMORY_TYPES, type MemoryBlobs, type MemoryEntry, type MemoryStore } from './types.js';

/** The index loaded into prompts is at most 200 lines (seed 003 §4): one line per entry. */
export const MAX_ENTRIES = 200;
export const MAX_RULE = 200;
export const MAX_WHY = 200;
export const MAX_WHERE = 120;

const entrySchema = z.object({
  type: z.enum(MEMORY_TYPES).optional(),
  rule: z.string().min(1).max(MAX_RULE),
  why: z.string().max(MAX_WHY),
  where: z.string().max(MAX_WHERE),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  url: z.string().max(500),
  author: z.string().max(100),
});
const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });

const norm = (rule: string): string =>
  rule
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function parse(json: string | undefined): MemoryEntry[] {
  if (json === undefined || json.trim() === '') return [];
  const res = fileSchema.safeParse(JSON.parse(json));
  return res.success ? res.data.entries : [];
}

const key = (repo: string): string => repo.toLowerCase();

export function createMemoryStore(blobs: MemoryBlobs): MemoryStore {
  const read = async (repo: string) => parse(await blobs.read(key(repo)));
  const write = async (repo: string, entries: MemoryEntry[]) => blobs.write(key(repo), JSON.stringify({ version: 1, entries }));
  return {
    list: read,
    async add(repo, entry) {
      const valid = entrySchema.parse(entry);
      const entries = await read(repo);
      const same = entries.findIndex((e) => norm(e.rule) === norm(valid.rule));
      if (same >= 0) return { added: false, duplicate: same + 1 };
      const next = [...entries, valid].slice(-MAX_ENTRIES);
      await write(repo, next);
      return { added: true, number: next.length };
    },
    async remove(repo, number) {
      const entries = await read(repo);
      if (!Number.isInteger(number) || number < 1 || number > entries.length) return undefined;
      const [gone] = entries.splice(number - 1, 1);
      await write(repo, entries);
      return gone;
    },
  };
}
