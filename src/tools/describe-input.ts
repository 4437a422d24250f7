/**
 * What a tool call is about, as one short string: its command, its file, its pattern (and folder), the
 * size of its todo list, else compact JSON. Read from the input's fields, so any tool that names its
 * inputs like the built-in ones is described the same way.
 */
export function describeInput(input: unknown, maxJson = Infinity): string {
  const rec = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : undefined;
  const str = (k: string): string | undefined => (typeof rec?.[k] === 'string' ? (rec[k] as string) : undefined);
  const command = str('command');
  if (command !== undefined) return command;
  const file = str('file_path');
  if (file !== undefined) return file;
  const pattern = str('pattern');
  if (pattern !== undefined) {
    const path = str('path');
    return path ? `${pattern} in ${path}` : pattern;
  }
  if (Array.isArray(rec?.todos)) return `${rec.todos.length} items`;
  if (typeof input === 'string') return input;
  let json: string;
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = String(input);
  }
  return json.length > maxJson ? `${json.slice(0, maxJson)}…` : json;
}
