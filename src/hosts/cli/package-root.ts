import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** proofpr's own folder (package.json, docs/, examples/): three levels up from src/hosts/cli or build/hosts/cli. */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}
