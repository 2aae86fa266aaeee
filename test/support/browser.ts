import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, defaultChromiumPath } from '../../build/main/packaging/chromium-launch.js';

/** Debian's Chromium: the browser tests never download a browser of their own. */
export const CHROMIUM_PATH = defaultChromiumPath();

/** Where the E2E run saves its screenshots of each view (ignored by git). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export function chromiumMissingReason(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `Chromium not found at ${CHROMIUM_PATH} (install Debian's chromium package)`;
}

/** Headless Chromium with the flags that work as root on a machine without outside network. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
}
