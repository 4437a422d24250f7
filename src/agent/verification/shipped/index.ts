export { classifyCommits, classifyTrees, classifyWorktree, fixFiles, infrastructure } from './classify.js';
export { cfgTestRanges, spliceTests, testsOf, withoutTests } from './rust-tests.js';
export type { ChangeKind, ClassifiedChange, FixView } from './types.js';
