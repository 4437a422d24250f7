/** An App private key file that is empty or holds no key: named at start with the fix, never Probot's stack. */
import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readServerEnv } from '../../../src/hosts/shared/server-env.js';
import { tempDir } from '../../kit/temp.js';

describe('PRIVATE_KEY_PATH', () => {
  it.each([
    ['', /PRIVATE_KEY_PATH: key\.pem is empty: point it at the \.pem file you downloaded from the App settings/],
    ['not a key\n', /PRIVATE_KEY_PATH: key\.pem holds no PEM key: point it at the \.pem file/],
  ])('%j: the setting, the problem and the fix', (text, message) => {
    const dir = tempDir('proofpr-key-');
    writeFileSync(join(dir, 'key.pem'), text);
    expect(() => readServerEnv({ APP_ID: '1', WEBHOOK_SECRET: 's', PRIVATE_KEY_PATH: 'key.pem' }, dir)).toThrow(message);
  });
});
