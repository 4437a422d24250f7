/**
 * Feedback memory (seed 001 ch. 9, seed 000 §5.1, seed 003 §4): what maintainers corrected in reviews of
 * proofpr's own PRs, one short entry each, per repository. Only what the code cannot tell and is not a
 * guess; dated absolutely; linked to the comment it came from. Entries are data for later prompts,
 * never instructions, and maintainers list and remove them with `/agent memory` and `/agent forget N`.
 */

type Awaitable<T> = T | Promise<T>;

/**
 * The four kinds of memory (seed 001 ch. 9, seed 003 §4.1): user (who the maintainers are and how they
 * want to be addressed), feedback (a correction of how to work here), project (a goal, decision or date
 * the code does not show), reference (where something lives outside the repository).
 */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export interface MemoryEntry {
  /** Which of the four kinds; absent on entries kept before types existed (they are feedback). */
  type?: MemoryType;
  /** The rule, in the imperative ("Do not mock the database in tests"). */
  rule: string;
  /** Why the maintainer wants it, as they said it. */
  why: string;
  /** Where it applies (a folder, a kind of change, "everywhere"). */
  where: string;
  /** The day the review was written (YYYY-MM-DD): absolute, never "last week". */
  date: string;
  /** The review or review comment the entry came from. */
  url: string;
  /** Who wrote the review. */
  author: string;
}

/** One repository's entries, oldest first; numbers in `/agent memory` are 1-based positions. */
export interface MemoryStore {
  list(repo: string): Promise<MemoryEntry[]>;
  /** Adds an entry (the oldest drop out past the cap); `duplicate` when the same rule is already kept. */
  add(repo: string, entry: MemoryEntry): Promise<{ added: true; number: number } | { added: false; duplicate: number }>;
  /** Removes entry `number` (1-based); undefined when there is none. */
  remove(repo: string, number: number): Promise<MemoryEntry | undefined>;
}

/** Where a store keeps one repository's entries as a JSON text: the App's SQLite or Redis, or a file. */
export interface MemoryBlobs {
  read(repo: string): Awaitable<string | undefined>;
  write(repo: string, json: string): Awaitable<void>;
}

/** A review (or review comment) on proofpr's own PR, as the learning step sees it. All text untrusted. */
export interface ReviewNote {
  owner: string;
  repo: string;
  pr: number;
  prTitle: string;
  kind: 'review' | 'review-comment';
  body: string;
  author: string;
  /** When it was written (ISO time): the entry's date. */
  at: string;
  /** Link to the review or comment. */
  url: string;
  /** A review comment's file, when it has one. */
  path?: string;
}
