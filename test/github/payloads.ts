/** Test helpers: load a payload fixture and patch it. */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'payloads');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function payload(name: string, patch: (p: Json) => void = () => {}): Json {
  const p = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Json;
  patch(p);
  return p;
}
