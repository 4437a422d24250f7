import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunnerName } from '../runners/types.js';
import { OBSERVERS } from './index.js';
import { reportsDir } from './types.js';
import { selectionFile, type TestSelection } from './selection.js';

export interface ObservedEnv {
  /** Given the environment the command would get, the variables to set on top of it. */
  extend(base: Readonly<Record<string, string | undefined>>): Record<string, string>;
  /** Runners whose report is the command's output stream. */
  streamRunners: RunnerName[];
}

/**
 * Prepares `dir` (a fresh folder only the harness created, writable in the sandbox) for one observed
 * run: every observer's files, the reports folder, and the environment additions. Nothing else about
 * the command changes: same argv, same cwd. With `select`, the observers that can narrow their runner
 * to those tests do (selection.ts).
 */
export async function observedEnv(dir: string, select?: TestSelection): Promise<ObservedEnv> {
  await mkdir(reportsDir(dir), { recursive: true });
  if (select?.tests.length) await writeFile(selectionFile(dir), JSON.stringify(select));
  for (const o of OBSERVERS) {
    for (const f of o.files(dir)) {
      await mkdir(dirname(f.path), { recursive: true });
      await writeFile(f.path, f.content);
    }
  }
  return {
    extend(base) {
      let env: Record<string, string | undefined> = { ...base };
      const added: Record<string, string> = {};
      for (const o of OBSERVERS) {
        const more = o.env(dir, env);
        Object.assign(added, more);
        env = { ...env, ...more };
      }
      return added;
    },
    streamRunners: OBSERVERS.flatMap((o) => [...(o.outputRunners ?? [])]),
  };
}
