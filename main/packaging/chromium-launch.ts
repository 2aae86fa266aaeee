/**
 * How this project starts headless Chromium through playwright-core: Debian's browser (no
 * download of its own) with the flags that work as root on a machine without outside network.
 * Used by `npm run icons` (render-icons.ts) and by the browser tests (test/support/browser.ts).
 * No imports: nothing here needs more than the environment.
 */

/** Debian's Chromium, unless `CHROMIUM_PATH` names another. */
export function defaultChromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
}

/** Command-line flags for every headless launch. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
