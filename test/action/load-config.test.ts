import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseActionInputs } from '../../src/config/action-inputs.js';
import { loadActionConfig } from '../../src/hosts/action/load-config.js';
import { tempDir } from '../kit/temp.js';

const inputs = () => parseActionInputs({ INPUT_ANTHROPIC_API_KEY: 'k', INPUT_GITHUB_TOKEN: 't' });

describe('loadActionConfig', () => {
  it('merges `_extends` of the checkout file through the GitHub port, as the App does', async () => {
    const ws = tempDir('proofpr-loadcfg-');
    mkdirSync(join(ws, '.github'));
    writeFileSync(join(ws, '.github', 'proofpr.yml'), '_extends: shared-config\nmax_turns: 9\n');
    const seen: Array<Record<string, unknown>> = [];
    const github = {
      extendConfig: async (raw: Record<string, unknown>) => {
        seen.push(raw);
        const { _extends: _x, ...own } = raw;
        return { max_cost_usd: 2, max_turns: 40, ...own };
      },
    };
    const config = await loadActionConfig(ws, inputs(), github);
    expect(seen[0]).toEqual({ _extends: 'shared-config', max_turns: 9 });
    expect(config).toMatchObject({ max_turns: 9, max_cost_usd: 2 });
  });
});
