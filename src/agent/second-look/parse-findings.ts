/** The second look's last message → its findings (validated, capped, redacted), or undefined when it is not the JSON asked for. */
import { z } from 'zod';
import { redactText as redactSecrets } from '../../secrets/index.js';
import type { Finding } from './types.js';

export const MAX_FINDINGS = 20;
const MAX_TEXT = 500;
const MAX_FILE = 300;

const schema = z.object({
  findings: z.array(
    z.object({
      severity: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['high', 'medium', 'low'])),
      file: z.string().nullish(),
      text: z.string().trim().min(1),
    }),
  ),
});

const cap = (s: string, n: number): string => {
  const one = redactSecrets(s.replace(/\s+/g, ' ').trim(), []);
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

const ORDER = { high: 0, medium: 1, low: 2 } as const;

export function parseFindings(text: string): Finding[] | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const res = schema.safeParse(raw);
  if (!res.success) return undefined;
  return res.data.findings
    .map((f) => ({ severity: f.severity, file: cap(f.file ?? '', MAX_FILE), text: cap(f.text, MAX_TEXT) }))
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
    .slice(0, MAX_FINDINGS);
}
