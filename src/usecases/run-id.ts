import { randomBytes } from 'node:crypto';

/** Sortable, unguessable run id: 20261129-175301-3f9a2c1b. */
export function newRunId(now: Date = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${t}-${randomBytes(4).toString('hex')}`;
}
