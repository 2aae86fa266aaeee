/**
 * The desk UI's front door, through the real command: `agent-host --headless` prints a
 * `Control UI: http://127.0.0.1:PORT/?token=…` link. Without that token a page sees the session
 * screen and no data, its own API calls answer 401, and a spent token does not sign anyone in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumMissingReason, launchChromium } from '../support/browser.js';
import { runCli, type CliProcess } from '../support/cli-process.js';
import { createTask, newDeskPage, POLL, screenshot, signIn, type DeskPage } from '../support/desk.js';
import { makeTempDir } from '../support/temp-dir.js';

const missing = chromiumMissingReason();
// Above the UI waits (UI_TIMEOUT), so a stuck step reports what it waited for.
vi.setConfig({ testTimeout: 120_000 });

let browser: Browser | undefined;
let cli: CliProcess | undefined;
let dataDir: { dir: string; cleanup: () => void } | undefined;
let a2aUrl = '';
let loginUrl = '';
let controlOrigin = '';
let secretMessage = '';
let secretTaskId = '';
const pages: DeskPage[] = [];

async function freshPage(): Promise<DeskPage> {
  const desk = await newDeskPage(browser!);
  pages.push(desk);
  return desk;
}

beforeAll(async () => {
  if (missing) return;
  dataDir = makeTempDir('agent-host-e2e-session-');
  cli = runCli(['--headless', '--port', '0', '--control-port', '0', '--data-dir', dataDir.dir, '--log-level', 'silent']);
  [, a2aUrl] = (await cli.waitForOutput(/listening on (http:\/\/\S+)/, 60_000)) as unknown as [string, string];
  [, loginUrl] = (await cli.waitForOutput(/^Control UI: (http:\/\/\S+)$/m, 60_000)) as unknown as [string, string];
  controlOrigin = new URL(loginUrl).origin;
  // Data that must not show without a session (and does with one).
  secretMessage = `confidential payroll run ${Date.now()}`;
  secretTaskId = (await createTask(a2aUrl, 'echo', { message: secretMessage })).task_id;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const desk of pages) await desk.context.close().catch(() => undefined);
  await browser?.close();
  if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  dataDir?.cleanup();
}, 60_000);

beforeEach((ctx) => {
  if (missing) ctx.skip(missing);
});

describe('the desk UI without the printed token', () => {
  it('prints a Control UI link with a one-time token on the loopback control port', () => {
    const url = new URL(loginUrl);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe(new URL(a2aUrl).port);
    expect(url.searchParams.get('token')).toMatch(/^\S{16,}$/);
  });

  it('shows the session screen and no task data; the page’s own API calls answer 401', async () => {
    const { page, pageErrors } = await freshPage();
    await page.goto(`${controlOrigin}/`);
    await page.getByRole('heading', { name: 'Open the link printed by agent-host' }).waitFor();
    await expect.poll(() => page.getByLabel('Or paste the link here').isVisible(), POLL).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    const text = await page.locator('body').innerText();
    expect(text).not.toContain(secretMessage);
    expect(text).not.toContain(secretTaskId.slice(0, 8));

    // A script on the page (or someone at its console) gets nothing from the API either.
    const answers = await page.evaluate(async () => {
      const tasks = await fetch('/api/tasks');
      const inbox = await fetch('/api/inbox');
      const events = await fetch('/api/events');
      return { tasks: tasks.status, tasksBody: await tasks.text(), inbox: inbox.status, events: events.status };
    });
    expect(answers).toMatchObject({ tasks: 401, inbox: 401, events: 401 });
    expect(answers.tasksBody).toContain('UNAUTHORIZED');
    expect(answers.tasksBody).not.toContain(secretMessage);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, 'session', scheme);
    }
    expect(pageErrors).toEqual([]);
  });

  it('signs in with the printed link (the token leaves the address bar), and the spent token works nowhere else', async () => {
    const first = await freshPage();
    await signIn(first.page, loginUrl);
    expect(first.page.url()).not.toContain('token=');
    // Signed in: the data is there, over the page's own fetch too.
    await first.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await first.page.getByRole('option').filter({ hasText: secretMessage }).waitFor();
    expect(await first.page.evaluate(async () => (await fetch('/api/tasks')).status)).toBe(200);

    // Another browser (no cookie) opening the same link: the token is spent.
    const second = await freshPage();
    await second.page.goto(loginUrl);
    await second.page.getByRole('heading', { name: 'That link has expired' }).waitFor();
    expect(second.page.url()).not.toContain('token=');
    expect(await second.page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await second.page.locator('body').innerText()).not.toContain(secretMessage);
    const token = new URL(loginUrl).searchParams.get('token');
    const reuse = await second.page.evaluate(async (t) => {
      const session = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: t }) });
      const tasks = await fetch('/api/tasks');
      return { session: session.status, tasks: tasks.status };
    }, token);
    expect(reuse).toEqual({ session: 401, tasks: 401 });

    // Pasting the spent link into the session screen does not sign in either.
    await second.page.getByLabel('Or paste the link here').fill(loginUrl);
    await second.page.getByRole('button', { name: 'Open' }).click();
    await second.page.getByRole('heading', { name: 'That link has expired' }).waitFor();
    await expect.poll(() => second.page.getByRole('button', { name: 'Open' }).isEnabled(), POLL).toBe(true);
    expect(await second.page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    expect([...first.pageErrors, ...second.pageErrors]).toEqual([]);
  });
});
