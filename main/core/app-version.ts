import { readFileSync } from 'node:fs';

/** The version in package.json, at the top of the repository or package (build/main/core/ is three folders below it). */
export function appVersion(): string {
  const file = new URL('../../../package.json', import.meta.url);
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
