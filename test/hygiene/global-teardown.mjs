export { after as default } from './project-worktrees.mjs';
