import { statSync } from 'node:fs';

/** What we knew about a file when a tool last read or wrote it. */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  /** True when the whole file was read (not an offset/limit slice). */
  full: boolean;
}

/**
 * Per-run table of files the model has seen. Edit/Write on an existing file need a full read first,
 * and are refused when the file changed on disk since (someone else wrote it).
 */
export class FileState {
  private readonly files = new Map<string, FileSnapshot>();

  /** Record a read (or our own write, with full = true) of an absolute path, from its current stat. */
  record(absPath: string, full: boolean): void {
    const st = statSync(absPath);
    const prev = this.files.get(absPath);
    this.files.set(absPath, {
      mtimeMs: st.mtimeMs,
      size: st.size,
      full: full || (prev?.full === true && prev.mtimeMs === st.mtimeMs && prev.size === st.size),
    });
  }

  get(absPath: string): FileSnapshot | undefined {
    return this.files.get(absPath);
  }

  /** A copy with the same entries: a sub-agent starts from what its parent has read, and its reads stay its own. */
  clone(): FileState {
    const copy = new FileState();
    for (const [path, snap] of this.files) copy.files.set(path, { ...snap });
    return copy;
  }

  /** Paths this run has read or written, sorted (stable output for reminders and compaction). */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /**
   * Why an edit of absPath must be refused, or undefined when it may go ahead.
   * 'not_read': never fully read; 'stale': changed on disk since the read.
   */
  checkEditable(absPath: string): 'not_read' | 'stale' | undefined {
    const snap = this.files.get(absPath);
    if (!snap || !snap.full) return 'not_read';
    const st = statSync(absPath);
    if (st.mtimeMs !== snap.mtimeMs || st.size !== snap.size) return 'stale';
    return undefined;
  }
}
