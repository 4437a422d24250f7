import type { Parser } from 'web-tree-sitter';
import { analyzeBash, type SimpleCommand } from '../../permissions/bash-analysis.js';

/** The one simple command `command` is, with static words; undefined for lists, pipelines, subshells, redirects or expansions. */
export function singleCommand(parser: Parser, command: string): SimpleCommand | undefined {
  const a = analyzeBash(parser, command);
  if (!a.ok || a.commands.length !== 1 || a.redirects.length > 0 || a.variables.length > 0) return undefined;
  const c = a.commands[0];
  if (!c || c.text.trim() !== command.trim()) return undefined;
  if (c.words.some((w) => w.value === null || w.glob) || c.assignments.some((x) => x.value !== null && x.value.value === null))
    return undefined;
  return c;
}
