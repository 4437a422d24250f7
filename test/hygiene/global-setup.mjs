export { before as default } from './project-worktrees.mjs';
