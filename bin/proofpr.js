#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in build/ (npm run build; `npm ci` runs it via prepare).
import { main } from '../build/hosts/cli/main.js';
main(process.argv).then((code) => { process.exitCode = code; });
