/**
 * Helpers for the desk UI's browser tests: a signed-in page, waiting on UI states (never on the
 * clock), screenshots, and the A2A calls an orchestrator would make.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Task } from '../../build/main/shared/protocol.js';
import { chromiumMissingReason, launchChromium, SCREENSHOT_DIR } from './browser.js';
import { fetchJson } from './fetch-json.js';
import { startTestHost, type TestHost, type TestHostOptions } from './test-host.js';

/** How long a UI state may take to appear: generous, for a loaded two-core machine. */
export const UI_TIMEOUT = 30_000;
/** For `expect.poll`: wait as long as the UI may take, checking often. */
export const POLL = { timeout: UI_TIMEOUT, interval: 100 } as const;

export const VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * The page's `window`, as far as these tests touch it inside `page.evaluate` (the tests compile
 * without DOM types): `(globalThis as unknown as PageWindow)`.
 */
export interface PageWindow {
  location: { hash: string };
  matchMedia(query: string): { matches: boolean };
  /** Set by markup in artifacts, should it ever run (it must not). */
  __pwned?: unknown;
  /** A marker a test sets to prove the page was not reloaded. */
  sameDocument?: boolean;
}

export interface DeskPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page (each test file checks there were none). */
  pageErrors: string[];
}

/** A fresh browser context (no cookies) with one page, and its uncaught errors collected. */
export async function newDeskPage(browser: Browser, colorScheme: 'light' | 'dark' = 'light'): Promise<DeskPage> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme, reducedMotion: 'reduce' });
  context.setDefaultTimeout(UI_TIMEOUT);
  context.setDefaultNavigationTimeout(UI_TIMEOUT);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors };
}

/** Opens the login link (`…/?token=…`) and waits until the signed-in app shows its navigation. */
export async function signIn(page: Page, loginUrl: string): Promise<void> {
  await page.goto(loginUrl);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

export interface DeskSuiteOptions {
  /** For `startTestHost`. */
  host?: TestHostOptions;
  /** The page's colour scheme (default light). */
  colorScheme?: 'light' | 'dark';
  /**
   * Sign the page in with the login link (true, the default), at a hash route of the app
   * (`'#/tasks'`: the link plus that hash), or not at all (false: the tests, or `setup`, do).
   */
  signIn?: boolean | string;
  /** Once the host is up, before Chromium starts: seed its database, open a control session. */
  prepareHost?: (t: TestHost) => void | Promise<void>;
  /** Last, once the page is open (and signed in, unless `signIn` is false). */
  setup?: (suite: DeskSuite) => Promise<void>;
  /** Of the `beforeAll` that starts all this (default 120 s). */
  timeout?: number;
}

/** What a suite of desk tests shares; read it inside hooks and tests (it is set up in `beforeAll`). */
export interface DeskSuite {
  /** Why the suite's tests are skipped (Chromium is not installed), or undefined: a file's own hooks return early on it. */
  readonly skipReason: string | undefined;
  readonly t: TestHost;
  readonly browser: Browser;
  /** The suite's page, in its own browser context. */
  readonly desk: DeskPage;
  /** `desk.page`. */
  readonly page: Page;
  /** Another page in a fresh browser context (no cookies), closed with the suite's. */
  newDeskPage(colorScheme?: 'light' | 'dark'): Promise<DeskPage>;
}

/**
 * Registers a test file's hooks for the desk UI against a real host: `beforeAll` starts the host,
 * launches Chromium, opens a page and signs it in; `afterAll` closes the pages and the browser and
 * removes the host; `beforeEach` skips every test, with the reason, when Chromium is not installed.
 */
export function useDeskSuite(options: DeskSuiteOptions = {}): DeskSuite {
  const missing = chromiumMissingReason();
  let t: TestHost | undefined;
  let browser: Browser | undefined;
  const pages: DeskPage[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the desk suite has no ${what} (read it only inside hooks and tests)`);
    return value;
  };

  const suite: DeskSuite = {
    skipReason: missing,
    get t() {
      return ready(t, 'host');
    },
    get browser() {
      return ready(browser, 'browser');
    },
    get desk() {
      return ready(pages[0], 'page');
    },
    get page() {
      return suite.desk.page;
    },
    async newDeskPage(colorScheme = 'light') {
      const desk = await newDeskPage(suite.browser, colorScheme);
      pages.push(desk);
      return desk;
    },
  };

  beforeAll(async () => {
    if (missing) return;
    t = await startTestHost(options.host);
    await options.prepareHost?.(t);
    browser = await launchChromium();
    const { page } = await suite.newDeskPage(options.colorScheme);
    const signInTo = options.signIn ?? true;
    if (signInTo !== false) await signIn(page, `${t.controlLoginUrl()}${signInTo === true ? '' : signInTo}`);
    await options.setup?.(suite);
  }, options.timeout ?? 120_000);

  afterAll(async () => {
    for (const desk of pages) await desk.context.close().catch(() => undefined);
    await browser?.close();
    await t?.cleanup();
  }, 60_000);

  beforeEach((ctx) => {
    if (missing) ctx.skip(missing);
  });

  return suite;
}

/** Goes to a view by its hash route (`#/tasks`) and waits for the view's title. */
export async function openView(page: Page, hash: string, title: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as PageWindow).location.hash = h;
  }, hash);
  await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
}

/** Saves `<name>-<scheme>.png` in SCREENSHOT_DIR (test-results/screenshots/). */
export async function screenshot(page: Page, name: string, scheme: 'light' | 'dark'): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}-${scheme}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}

/** What an orchestrator does: `POST {a2a}/agents/{slug}/tasks`; throws unless 202. */
export async function createTask(a2aUrl: string, slug: string, input: Record<string, unknown>): Promise<Task> {
  const res = await fetchJson<Task>('POST', `${a2aUrl}/agents/${slug}/tasks`, { input });
  if (res.status !== 202) throw new Error(`create ${slug} task: ${res.status} ${res.text}`);
  return res.body;
}

/** `GET {a2a}/agents/{slug}/tasks/{id}`: the task as the orchestrator sees it. */
export async function getTask(a2aUrl: string, slug: string, taskId: string): Promise<Task> {
  const res = await fetchJson<Task>('GET', `${a2aUrl}/agents/${slug}/tasks/${taskId}`);
  if (res.status !== 200) throw new Error(`get task ${taskId}: ${res.status} ${res.text}`);
  return res.body;
}
