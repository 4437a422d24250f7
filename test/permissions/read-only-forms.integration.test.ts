import { describe, it, expect } from '@jest/globals';
import { itDecides, usePolicies } from '../kit/walls-policy.js';
import { makePolicyRepo } from './fixture-repo.js';

/* Read-only forms the effects corpus's benign half found blocked (issue 23), and their dangerous neighbours. */

const { policy, plan } = usePolicies(() => makePolicyRepo().root, { policy: {}, plan: { mode: 'plan' } });

describe('read-only forms are allowed without a rule', () => {
  itDecides(
    '%s is allowed',
    'allow',
    [
      'node --version',
      'npm --version',
      'node -v',
      'uname -s',
      'uname -a',
      'date -u +%Y',
      'date',
      'date -u -d yesterday +%F',
      'awk \'/export/ { print FILENAME ": " $0 }\' README.md',
      "awk -F, '{ print $1 }' README.md",
      'jq .scripts package.json',
      'jq -r .name package.json',
      'mkdir -p tmp',
      'mkdir -p tmp && echo scratch > tmp/notes.txt && cat tmp/notes.txt',
    ],
    policy,
  );
});

describe('their dangerous neighbours are still refused', () => {
  itDecides(
    '%s is refused',
    'deny',
    [
      'node --version -e "1"',
      'node -e "1" --version',
      'npm --version install',
      'date -s 2020-01-01',
      'date 010100002020',
      'date -f /etc/passwd',
      'awk \'BEGIN { system("id") }\'',
      'awk \'{ print > "/tmp/x" }\' README.md',
      'awk \'{ print | "sh" }\' README.md',
      'awk \'BEGIN { while ((getline l < "/etc/passwd") > 0) print l }\'',
      'awk \'BEGIN { print ENVIRON["HOME"] }\'',
      'awk -f prog.awk README.md',
      "jq -n 'env'",
      "jq -n '$ENV.HOME'",
      'jq -L /tmp .x package.json',
      'jq -f prog.jq package.json',
      "jq --rawfile x /etc/passwd '.' package.json",
      'jq . /etc/passwd',
      'mkdir -p /tmp/outside-dir',
      'mkdir -m 777 tmp',
    ],
    policy,
  );

  it('mkdir is not read-only: plan mode refuses it', async () => {
    expect((await plan.check('Bash', { command: 'mkdir -p tmp' })).behavior).toBe('deny');
  });
});

describe('git cat-file prints objects only by the names on its command line', () => {
  // --batch / --batch-command read object names from stdin and --batch-all-objects walks the whole store: a
  // tracked secret's blob would be printed without its path ever reaching the secret-file check.
  itDecides(
    '%s is refused',
    'deny',
    ['git cat-file --batch-all-objects --batch', 'echo HEAD:README.md | git cat-file --batch', 'git cat-file --batch-command'],
    policy,
  );
  itDecides(
    '%s is allowed',
    'allow',
    ['git cat-file -p HEAD:README.md', 'git cat-file -t HEAD', 'git rev-parse HEAD | git cat-file --batch-check'],
    policy,
  );
});
