import type { FileState } from '../file-state.js';
import type { ToolResult } from '../define-tool.js';

/** The read-before-write rule: undefined when abs may be changed, else the refusal the model sees. */
export function editGuard(fileState: FileState, abs: string, shownPath: string, verb: 'edit' | 'overwrite'): ToolResult | undefined {
  const why = fileState.checkEditable(abs);
  if (why === undefined) return undefined;
  if (why === 'stale') {
    return {
      forModel: `${shownPath} changed on disk since you last read it (a command, a hook or another process modified it). Read it again, then retry the ${verb} against its current content.`,
      isError: true,
      errorKind: 'stale',
    };
  }
  const partial = fileState.get(abs) !== undefined;
  return {
    forModel: partial
      ? `You have read only part of ${shownPath}. Read the whole file (Read with just file_path, or offset 1 and a limit covering every line) before you ${verb} it.`
      : `You must read ${shownPath} before you ${verb} it. Call Read with file_path "${shownPath}" first, then retry.`,
    isError: true,
    errorKind: 'not_read',
  };
}
