/** The second look as evidence.json carries it (the gate goes with the other gates). */
import type { Usage } from '../../model/model-client.js';
import type { Evidence } from './types.js';

type Look = Pick<NonNullable<Evidence['secondLook']>, 'status' | 'findings' | 'reason'> & { usage: Usage; costUsd: number; turns: number };

export function secondLookOf(look: Look): NonNullable<Evidence['secondLook']> {
  return {
    status: look.status,
    findings: look.findings.map((f) => ({ severity: f.severity, file: f.file, text: f.text })),
    ...(look.reason ? { reason: look.reason } : {}),
    usage: { ...look.usage, costUsd: Math.round(look.costUsd * 1e6) / 1e6, turns: look.turns },
  };
}
