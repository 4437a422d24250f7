import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

let loading: Promise<Parser> | null = null;

/**
 * The tree-sitter-bash parser (WASM), loaded once per process and shared: parsing is synchronous, so
 * one instance serves every caller. Resolved with createRequire so it works from src/ and build/.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const lang = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(lang);
    return parser;
  })().catch((e: unknown) => {
    loading = null;
    throw new Error(`cannot load the bash parser (tree-sitter-bash.wasm): ${(e as Error).message}`);
  });
  return loading;
}
