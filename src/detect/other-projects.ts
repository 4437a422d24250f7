import { readdir } from 'node:fs/promises';
import { exists, readText } from './read-text.js';
import type { DetectedCommands } from './types.js';

/** A Go module: `go test ./...`; `go mod download` first when go.sum lists modules. */
export async function detectGo(root: string): Promise<DetectedCommands | undefined> {
  if (!(await exists(root, 'go.mod'))) return undefined;
  const sum = await readText(root, 'go.sum');
  return {
    test: { command: 'go test ./...', runner: 'go', why: 'go.mod is at the top: every package of the module' },
    ...(sum && sum.trim()
      ? {
          setup: { command: 'go mod download', tool: 'go', why: 'go.sum lists modules: download them before the sandbox cuts the network' },
        }
      : {}),
    notes: [],
  };
}

/** A Cargo package or workspace: `cargo test`; `cargo fetch` first. */
export async function detectCargo(root: string): Promise<DetectedCommands | undefined> {
  const text = await readText(root, 'Cargo.toml');
  if (text === undefined) return undefined;
  const deps = /^\s*\[(?:dev-)?dependencies\]\s*$[\s\S]*?^\s*[A-Za-z0-9_-]+\s*=/m.test(text) || /^\s*\[workspace\]/m.test(text);
  return {
    test: { command: 'cargo test', runner: 'cargo', why: 'Cargo.toml is at the top' },
    ...(deps
      ? {
          setup: {
            command: 'cargo fetch',
            tool: 'cargo',
            why: 'Cargo.toml has dependencies: fetch them before the sandbox cuts the network',
          },
        }
      : {}),
    notes: [],
  };
}

/** A Makefile (GNUmakefile, makefile) with a `test:` target: `make test`. */
export async function detectMake(root: string): Promise<DetectedCommands | undefined> {
  const names = new Set(await readdir(root).catch(() => []));
  for (const f of ['GNUmakefile', 'makefile', 'Makefile']) {
    if (!names.has(f)) continue;
    const text = (await readText(root, f)) ?? '';
    if (/^test\s*:(?!=)/m.test(text)) return { test: { command: 'make test', runner: 'make', why: `${f} has a test: target` }, notes: [] };
    return { notes: [`${f} has no test: target`] };
  }
  return undefined;
}
