/**
 * A harness run (baseline, final, kept, red→green) shares nothing writable with the agent's commands:
 * its own empty TMPDIR (a runner's cache planted there by the agent cannot stand in for a file) and a
 * home from the setup snapshot whose settings files are private copies (what one harness run writes
 * to them never reaches the next); the caches there are hard links, not copied per run.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_FROM_BYTES, SETUP_HOME, snapshotHome } from '../../src/workspace/fresh-home.js';
import { openExec } from '../kit/walls-exec.js';

async function setup(sandbox: 'off' | 'required'): Promise<{ x: (command: string, fresh?: boolean) => Promise<string>; run: string }> {
  const { h, root, run } = await openExec('proofpr-private-', { sandbox });
  const x = async (command: string, fresh = false) =>
    (await h.exec({ command, cwd: root, timeoutMs: 20_000, ...(fresh ? { home: 'fresh' as const } : {}) })).output;
  return { x, run };
}

describe('harness runs have private TMPDIR and home settings', () => {
  it.each(['off', 'required'] as const)(
    'sandbox %s: a cache the agent planted in TMPDIR is not in a harness run’s TMPDIR',
    async (sandbox) => {
      const { x } = await setup(sandbox);
      const agentTmp = (await x('mkdir -p "$TMPDIR/jest_0" && echo planted > "$TMPDIR/jest_0/entry" && echo "$TMPDIR"')).trim();
      const out = await x('echo "$TMPDIR"; ls -A "$TMPDIR" | wc -l; echo mine > "$TMPDIR/x"; cat "$TMPDIR/x"', true);
      const [harnessTmp, count, wrote] = out.trim().split('\n');
      expect(harnessTmp).not.toBe(agentTmp);
      expect(count?.trim()).toBe('0');
      expect(wrote).toBe('mine');
      // Each harness run gets its own, removed after it; the agent's stays as it was.
      const second = await x('echo "$TMPDIR"; ls -A "$TMPDIR" | wc -l', true);
      expect(second.split('\n')[0]).not.toBe(harnessTmp);
      expect(second.split('\n')[1]?.trim()).toBe('0');
      expect(await x('cat "$TMPDIR/jest_0/entry"')).toBe('planted\n');
    },
  );

  it('a settings file of the setup snapshot is copied into each fresh home: a harness run writing it changes neither the snapshot nor the next run', async () => {
    const { x, run } = await setup('off');
    writeFileSync(join(run, 'home', '.npmrc'), 'registry=https://registry.example.invalid/\n');
    writeFileSync(join(run, 'home', 'big.bin'), Buffer.alloc(LINK_FROM_BYTES, 1));
    mkdirSync(join(run, 'home', 'go', 'pkg', 'mod'), { recursive: true });
    writeFileSync(join(run, 'home', 'go', 'pkg', 'mod', 'small.go'), 'package m\n');
    await snapshotHome(run);
    expect(await x('cat "$HOME/.npmrc" && echo "script-shell=/tmp/evil" >> "$HOME/.npmrc"', true)).toContain('registry.example.invalid');
    expect(await x('cat "$HOME/.npmrc"', true)).toBe('registry=https://registry.example.invalid/\n');
    expect(readFileSync(join(run, SETUP_HOME, '.npmrc'), 'utf8')).toBe('registry=https://registry.example.invalid/\n');
    // A big file, and a small one deep in a cache (Go's module cache), are there too: hard-linked, not copied.
    expect((await x('wc -c < "$HOME/big.bin"', true)).trim()).toBe(String(LINK_FROM_BYTES));
    expect((await x('stat -c %h "$HOME/go/pkg/mod/small.go" "$HOME/.npmrc"', true)).trim().split('\n')).toEqual(['2', '1']);
  });
});
