/**
 * Helpers for the desk UI's browser tests: a signed-in page, waiting on UI states (never on the
 * clock), screenshots, and the A2A calls an orchestrator would make.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Task } from '../../build/main/shared/protocol.js';
import { SCREENSHOT_DIR } from './browser.js';
import { fetchJson } from './fetch-json.js';

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
