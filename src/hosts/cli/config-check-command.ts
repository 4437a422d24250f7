/**
 * `proofpr config check [--repo DIR] [--config FILE]`: validate `.github/proofpr.yml` deeply (schema,
 * rule syntax, hook matchers, cron strings, paths) for CI. Exit 0 when valid (or absent: defaults),
 * 2 with each bad key path on stderr. Nothing is run and nothing is written.
 */
import { resolve } from 'node:path';
import { ConfigError } from '../../config/repo-config.js';
import { detectCommands } from '../../detect/detect-commands.js';
import { resolveCommands } from '../../detect/resolve-commands.js';
import { readConfigFile } from './read-config-file.js';

export interface ConfigCheckFlags {
  repo?: string;
  config?: string;
}

export async function configCheckCommand(
  flags: ConfigCheckFlags,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  const repoDir = resolve(flags.repo ?? '.');
  let file;
  try {
    file = readConfigFile(repoDir, flags.config, { extendsAllowed: true });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    err(`proofpr config check: ${e.message}\n`);
    return 2;
  }
  const c = file.config;
  const resolved = resolveCommands(c, await detectCommands(repoDir), file.shown);
  out(`${file.exists ? `${file.shown} is valid` : `no ${file.shown}: the defaults apply`}\n`);
  if (file.extends)
    out(
      `  _extends: ${file.extends} is merged under this file when proofpr reads it through GitHub (the App, the Action, a GitHub target); not read here, so only this file's own keys were checked\n`,
    );
  out(
    `  test: ${resolved.test ? `\`${resolved.test.command}\` (${resolved.test.source}: ${resolved.test.why})` : `none — ${resolved.missing ?? 'set test.command'}`}\n`,
  );
  out(`  setup: ${resolved.setup ? `\`${resolved.setup.command}\` (${resolved.setup.source}: ${resolved.setup.why})` : 'none'}\n`);
  out(
    `  rules: ${c.permissions.allow.length} allow, ${c.permissions.deny.length} deny; hooks: ${Object.values(c.hooks).reduce((n, l) => n + l.length, 0)}; sweeps: ${c.sweeps.length}\n`,
  );
  return 0;
}
