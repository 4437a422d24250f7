import { resolve } from 'node:path';

/** State folder (CONTRACT §2): $PROOFPR_HOME, default `.proofpr/` under the current directory. */
export function proofprHome(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return resolve(cwd, env.PROOFPR_HOME || '.proofpr');
}
