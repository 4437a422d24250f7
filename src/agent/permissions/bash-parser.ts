import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

let loading: Promise<Parser> | null = null;
let wasmDir: string | undefined;

/**
 * Load tree-sitter.wasm and tree-sitter-bash.wasm from `dir` instead of node_modules (a single-file
 * bundle such as the Action's dist/ ships them next to itself). Call before the first parse.
 */
export function setBashWasmDir(dir: string): void {
  wasmDir = dir;
}

/**
 * The tree-sitter-bash parser (WASM), loaded once per process and shared: parsing is synchronous, so
 * one instance serves every caller. Resolved with createRequire so it works from src/ and build/.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const dir = wasmDir;
    await Parser.init(dir ? { locateFile: (file: string) => join(dir, file) } : undefined);
    const lang = await Language.load(dir ? join(dir, 'tree-sitter-bash.wasm') : require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(lang);
    return parser;
  })().catch((e: unknown) => {
    loading = null;
    throw new Error(`cannot load the bash parser (tree-sitter-bash.wasm): ${(e as Error).message}`);
  });
  return loading;
}
