#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in build/ (npm run build; `npm ci` runs it via prepare).
// `--version` alone is answered here, from package.json, without loading the CLI's module graph.
if (process.argv.length === 3 && ['--version', '-V'].includes(process.argv[2])) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The long-running hosts log one info line per delivery and per run unless LOG_LEVEL says otherwise.
  if (!process.env.LOG_LEVEL && ['serve', 'worker'].includes(process.argv[2] ?? '')) process.env.LOG_LEVEL = 'info';
  const { main } = await import('../build/hosts/cli/main.js');
  main(process.argv).then((code) => { process.exitCode = code; });
}
