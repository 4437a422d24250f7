/** The Action's entry point (dist/index.js is this file bundled): no logic here. */
import { runAction } from './runner.js';

process.exitCode = await runAction();
