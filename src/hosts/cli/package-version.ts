import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version in proofpr's own package.json (three levels up from src/hosts/cli or build/hosts/cli). */
export function packageVersion(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'package.json');
  try {
    const v = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}
