import { readFileSync } from 'node:fs';

/** The version in package.json (two folders above build/main/cli and main/cli alike). */
export function appVersion(): string {
  const file = new URL('../../../package.json', import.meta.url);
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
