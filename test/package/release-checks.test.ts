/**
 * The release script's offline checks (scripts/release.mjs): what npm's provenance needs in package.json,
 * the README's pins of the Action, and a dry run's notes before the version has a CHANGELOG section.
 */
import { describe, expect, it } from '@jest/globals';
// @ts-expect-error: a plain ES module script without types
import { dryRunNotes, githubSlug, publishProblems } from '../../scripts/release.mjs';

const pkg = {
  name: 'proofpr',
  version: '1.2.3',
  repository: { type: 'git', url: 'git+https://github.com/proofpr/proofpr.git' },
  homepage: 'https://github.com/proofpr/proofpr#readme',
  bugs: { url: 'https://github.com/proofpr/proofpr/issues' },
};
const readme = 'uses: actions/checkout@v6\n        uses: proofpr/proofpr@v1\n';

describe('release checks', () => {
  it('a package with its repository, homepage and bugs, pinned as v1 in the README: publishable', () => {
    expect(publishProblems(pkg, readme)).toEqual([]);
  });

  it.each([
    ['repository', /"repository" must name the GitHub repository .* --provenance refuses/],
    ['homepage', /"homepage" is missing/],
    ['bugs', /"bugs" is missing/],
  ])('without %s: refused, naming the field and the fix', (field, message) => {
    const without = { ...pkg } as Record<string, unknown>;
    delete without[field];
    expect((publishProblems(without, readme) as string[]).join('\n')).toMatch(message);
  });

  it('a README that pins another major than the release moves: refused with the fix', () => {
    expect(publishProblems({ ...pkg, version: '0.1.0' }, readme)).toEqual([
      'README.md: "uses: proofpr/proofpr@v1" pins v1, but releasing 0.1.0 moves v0: bump the version or fix the README',
    ]);
  });

  it('repository URLs in the forms npm accepts name the same repository', () => {
    for (const url of [
      'git+https://github.com/o/n.git',
      'https://github.com/o/n',
      'git@github.com:o/n.git',
      'git+ssh://git@github.com/o/n.git',
    ])
      expect(githubSlug(url)).toBe('o/n');
    expect(githubSlug('https://example.com/o/n')).toBeUndefined();
  });

  it("a dry run before the version's section: the [Unreleased] entries, with a warning", () => {
    const changelog = '# Changelog\n\n## [Unreleased]\n\n### Added\n- x\n\n## [0.1.0]\n\n- y\n';
    const got = dryRunNotes(changelog, '1.0.0') as { notes: string; from: string; warning?: string };
    expect(got.from).toBe('Unreleased');
    expect(got.notes).toBe('### Added\n- x\n');
    expect(got.warning).toMatch(/no "## \[1\.0\.0\]" section yet/);
    expect(dryRunNotes(changelog, '0.1.0')).toEqual({ notes: '- y\n', from: '0.1.0' });
  });
});
