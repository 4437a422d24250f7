/**
 * `proofpr doctor [--repo DIR]`: is this machine and this repository ready? Node, git, ripgrep,
 * bubblewrap (really creating namespaces), the API key and model id (one count_tokens request), the
 * config (validated deeply), and a dry test run with the counts the harness can read. One line per
 * check; exit 0 when nothing failed (warnings allowed), 2 when a check failed (each names its fix).
 */
import { resolve } from 'node:path';
import { ConfigError, type RepoConfig } from '../../config/repo-config.js';
import { detectCommands } from '../../detect/detect-commands.js';
import { resolveCommands } from '../../detect/resolve-commands.js';
import { readConfigFile } from './read-config-file.js';
import { formatCheck, type CheckResult } from './doctor/check.js';
import { checkBubblewrap, checkGit, checkNode, checkRipgrep } from './doctor/machine-checks.js';
import { checkModel } from './doctor/model-check.js';
import { checkPackageManager } from './doctor/package-manager-check.js';
import { checkProvider } from './doctor/provider-check.js';
import { checkTestRun } from './doctor/test-check.js';

export interface DoctorFlags {
  repo?: string;
  config?: string;
}

export async function doctorCommand(
  flags: DoctorFlags,
  env: NodeJS.ProcessEnv = process.env,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  const repoDir = resolve(flags.repo ?? '.');
  const results: CheckResult[] = [];
  const report = (c: CheckResult): void => {
    results.push(c);
    out(formatCheck(c));
  };
  report(checkNode());
  report(await checkGit());
  report(await checkRipgrep());

  let config: RepoConfig | undefined;
  let shown = '.github/proofpr.yml';
  try {
    const file = readConfigFile(repoDir, flags.config);
    shown = file.shown;
    config = file.config;
    report({
      name: 'config',
      status: 'ok',
      detail: file.exists ? `${file.shown} is valid` : `no ${file.shown}: the defaults apply (proofpr init writes one)`,
    });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    report({
      name: 'config',
      status: 'fail',
      detail: e.message.replace(/\n/g, '\n      '),
      fix: 'correct the keys named above (proofpr config check shows the same)',
    });
  }
  report(await checkBubblewrap(config?.sandbox ?? 'auto'));
  const model = env.PROOFPR_MODEL?.trim() || config?.model;
  const provider = env.PROOFPR_PROVIDER?.trim() || config?.provider || 'anthropic';
  if (provider !== 'anthropic')
    report(
      provider === 'bedrock' || provider === 'vertex'
        ? checkProvider(provider, env.PROOFPR_PROVIDER?.trim() ? 'PROOFPR_PROVIDER' : `provider: in ${shown}`, env)
        : {
            name: 'model provider',
            status: 'fail',
            detail: `PROOFPR_PROVIDER=${provider} is not a provider`,
            fix: 'set it to anthropic, bedrock or vertex',
          },
    );
  else if (model) {
    const modelFrom = env.PROOFPR_MODEL?.trim() ? 'PROOFPR_MODEL' : `model: in ${shown}, or PROOFPR_MODEL`;
    const apiKey = env.ANTHROPIC_API_KEY?.trim();
    const baseUrl = env.ANTHROPIC_BASE_URL?.trim();
    report(await checkModel({ model, modelFrom, ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) }));
  } else report({ name: 'api key and model', status: 'skip', detail: 'the config is invalid, so the model id is unknown' });
  if (config) {
    const pm = await checkPackageManager(repoDir, resolveCommands(config, await detectCommands(repoDir), shown), env);
    if (pm.check) report(pm.check);
    const home = env.PROOFPR_HOME ? resolve(env.PROOFPR_HOME) : undefined;
    if (pm.check?.status === 'fail') report({ name: 'dry test run', status: 'skip', detail: 'the package manager cannot run (above)' });
    else {
      // The dry run is the repository's own test suite: say so before it starts, it may take minutes.
      if (pm.resolved.test)
        out(
          `....  dry test run: running \`${pm.resolved.test.command}\` once on HEAD (at most test.timeout_min, ${config.test.timeout_min} min)\n`,
        );
      report(await checkTestRun(repoDir, pm.resolved, home));
    }
  } else report({ name: 'dry test run', status: 'skip', detail: 'the config is invalid' });

  const failed = results.filter((r) => r.status === 'fail');
  out(
    failed.length === 0
      ? '\nready.\n'
      : `\n${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((f) => f.name).join(', ')}\n`,
  );
  return failed.length === 0 ? 0 : 2;
}
