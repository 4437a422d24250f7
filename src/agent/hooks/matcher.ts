/** Hook matchers are config syntax: defined once in src/config/hook-matcher.ts. */
export { matchesTool } from '../../config/hook-matcher.js';
