/** Small text helpers shared by the evidence renderers (all pure). */
import type { TestCounts } from '../events.js';

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - 1)) + '…';
}

/** One line: newlines and runs of whitespace become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first 10 characters of a tree or commit hash (enough to compare by eye). */
export function shortHash(hash: string | undefined): string {
  return hash ? hash.slice(0, 10) : '';
}

/** CONTRACT §9: executed = passed + failed. */
export function executed(counts: TestCounts | null): number | null {
  return counts ? counts.passed + counts.failed : null;
}

/** Milliseconds as a short human duration: 850ms, 12.3s, 4m 05s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/** Dollars with 4 decimals (turn costs are small). */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** Integer with thousands separators, locale-independent (deterministic output). */
export function formatInt(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
