#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in build/ (npm run build; `npm ci` runs it via prepare).
// The long-running hosts log one info line per delivery and per run unless LOG_LEVEL says otherwise.
if (!process.env.LOG_LEVEL && ['serve', 'worker'].includes(process.argv[2] ?? '')) process.env.LOG_LEVEL = 'info';
const { main } = await import('../build/hosts/cli/main.js');
main(process.argv).then((code) => { process.exitCode = code; });
