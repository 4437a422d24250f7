import { describe } from '@jest/globals';
import { itDecides, usePolicies } from '../kit/walls-policy.js';
import { makePolicyRepo } from './fixture-repo.js';

/* Benign commands the attack corpus's benign half found blocked (issue 23), and their dangerous neighbours. */

const { policy } = usePolicies(() => makePolicyRepo().root, { policy: {} });

describe('benign commands are allowed', () => {
  itDecides(
    'benign - %s is allowed',
    'allow',
    [
      "sed -n ':a;N;$!ba;s/\\n/ /g;p' README.md",
      "sed ':a;N;$!ba;s/\\n/,/g' data.csv",
      "sed -n '/start/,/end/{p;b};$p' README.md",
      "sed -e ':loop' -e 's/aa/a/;t loop' README.md",
      'readlink link-inside.ts',
      'readlink -f link-inside.ts',
      'git ls-files -o -i --exclude-standard',
      'git ls-files -o --exclude-standard',
      'git status -uno',
      'git status -u',
      'git grep -o -n export -- src',
    ],
    policy,
  );

  itDecides(
    'benign - its dangerous neighbour %s is still refused',
    'deny',
    [
      "sed -n ':a e touch /tmp/x' README.md",
      "sed 'ba e touch /tmp/x' README.md",
      "sed ':a;e touch /tmp/x' README.md",
      "sed -n ':a;N;$!ba;w out.txt' README.md",
      "sed 's/a/b/e' README.md",
      'git format-patch -o /tmp/x HEAD~1',
    ],
    policy,
  );
});
