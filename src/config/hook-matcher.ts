/**
 * Whether a hook's `matcher` selects a tool: a regular expression on the whole tool name
 * (`Edit|Write` is anchored as `^(?:Edit|Write)$`). No matcher, an empty one or `*` selects every tool;
 * events without a tool (Stop, SessionStart, …) ignore the matcher. Throws on an invalid expression.
 */
export function matchesTool(matcher: string | undefined, toolName: string | undefined): boolean {
  if (toolName === undefined) return true;
  const m = matcher?.trim();
  if (!m || m === '*') return true;
  return new RegExp(`^(?:${m})$`).test(toolName);
}
