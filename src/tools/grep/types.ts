export type GrepMode = 'content' | 'files_with_matches' | 'count';
export type GrepBackendName = 'rg' | 'git' | 'js';

export interface GrepQuery {
  pattern: string;
  /** Folder or file to search: relative to root ('.' = root), or absolute when outside it (read roots). */
  target: string;
  targetIsFile: boolean;
  /** True when target lies inside the repository root. */
  inRoot: boolean;
  glob?: string;
  ignoreCase: boolean;
  context: number;
  mode: GrepMode;
}

export interface LineHit {
  line: number;
  text: string;
  match: boolean;
}

/** What every backend hands back: paths as they will be shown (relative to root, or absolute outside it). */
export type GrepHits = { ok: true; files: Map<string, LineHit[]>; counts: Map<string, number> } | { ok: false; error: string };

export type GrepBackend = (q: GrepQuery, root: string, signal?: AbortSignal) => Promise<GrepHits>;

export function emptyHits(): { ok: true; files: Map<string, LineHit[]>; counts: Map<string, number> } {
  return { ok: true, files: new Map(), counts: new Map() };
}
