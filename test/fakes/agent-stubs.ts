/** Stand-ins for tests that are not about permissions or hooks. */
import type { HookRunner } from '../../src/agent/hooks/types.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';

/** A policy that allows everything. */
export const allowAllPolicy: PermissionPolicy = {
  async check() {
    return { behavior: 'allow', rule: 'allow-all', reason: '' };
  },
};

/** No hooks configured. */
export const noHooks: HookRunner = {
  async run() {
    return [];
  },
};
