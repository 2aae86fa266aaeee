/**
 * `#/inbox/<taskId>`: the link to one prompt (what the tray and notifications open). In Debian's
 * Chromium against a real host with 60 waiting tasks seeded into its SQLite (more than the
 * inbox's first page of 50): the prompt is brought into view, highlighted, with its answer field
 * focused, also when it is not on the first page (then it is fetched and put on top, once); and a
 * task that no longer waits gets a notice with a link to the task, also when it is answered
 * elsewhere while its prompt is open.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { Locator } from 'playwright-core';
import { createTask, POLL, screenshot, signIn, useDeskSuite, VIEWPORT, type PageWindow } from '../support/desk.js';
import { fetchJson } from '../support/fetch-json.js';
import { seedTasks } from '../support/seed-tasks.js';

const DESK_PLUGINS = fileURLToPath(new URL('../fixtures/desk-plugins', import.meta.url));
/** 1,200 seeded tasks: every 20th waits for an answer, so 60 do (the inbox shows 50 at first). */
const SEEDED = 1200;
const WAITING = 60;

vi.setConfig({ testTimeout: 120_000 });

/** The seeded waiting tasks, newest first (the inbox's order). */
let waiting: { task_id: string; prompt: string }[] = [];

// Not signed in: the first test signs in with a link to a prompt.
const suite = useDeskSuite({
  host: { pluginDirs: [DESK_PLUGINS] },
  signIn: false,
  prepareHost: (t) => {
    seedTasks(t.host.db, SEEDED);
    waiting = t.host.db.prepare(`SELECT task_id, prompt FROM tasks WHERE status = 'INPUT_REQUIRED' ORDER BY seq DESC`).all() as typeof waiting;
  },
});

function inboxList(): Locator {
  return suite.page.getByRole('list', { name: 'Waiting for an answer' });
}

function card(prompt: string): Locator {
  return inboxList().getByRole('listitem', { name: prompt, exact: true });
}

async function goTo(hash: string): Promise<void> {
  await suite.page.evaluate((h) => {
    (globalThis as unknown as PageWindow).location.hash = h;
  }, hash);
}

/** Whether this element has the keyboard focus. */
function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement);
}

/** Whether the element is entirely inside the window. */
async function inViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= VIEWPORT.height;
}

/** Bringing a prompt into view scrolls the inbox, never the app's frame: the nav and the title stay put. */
async function expectFrameInPlace(): Promise<void> {
  expect(await inViewport(suite.page.getByRole('heading', { level: 1, name: 'Inbox' }))).toBe(true);
  expect((await suite.page.getByRole('navigation', { name: 'Main' }).boundingBox())?.y).toBe(0);
}

describe('a prompt beyond the first page', () => {
  it('opens from a link on load: fetched, on top, highlighted, its answer field focused, counted once', async () => {
    expect(waiting).toHaveLength(WAITING);
    const oldest = waiting.at(-1)!;
    await signIn(suite.page, `${suite.t.controlLoginUrl()}#/inbox/${oldest.task_id}`);
    const target = card(oldest.prompt);
    await target.waitFor();

    // On top of the first page, which does not hold it, and marked as the one asked for.
    expect(await inboxList().getByRole('listitem').first().getAttribute('data-task-id')).toBe(oldest.task_id);
    expect(await target.getAttribute('aria-current')).toBe('true');
    expect(await inboxList().locator('li[aria-current]').count()).toBe(1);
    await expect.poll(() => isFocused(target.getByLabel('Your answer')), POLL).toBe(true);
    expect(await inViewport(target.getByLabel('Your answer'))).toBe(true);
    await expectFrameInPlace();
    // The keyboard is in its answer box: typing goes there.
    await suite.page.keyboard.type('Teal');
    expect(await target.getByLabel('Your answer').inputValue()).toBe('Teal');

    // 50 of the page plus the one fetched, of all 60; the heading and nav count it once.
    await suite.page.getByText(`Showing 51 of ${WAITING}`).waitFor();
    await suite.page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await suite.page.getByText(`${WAITING} tasks waiting for your answer`).waitFor();
    expect(new URL(suite.page.url()).hash).toBe(`#/inbox/${oldest.task_id}`);

    // The page that holds it does not add it a second time.
    await suite.page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => inboxList().getByRole('listitem').count(), POLL).toBe(WAITING);
    expect(await inboxList().getByRole('listitem', { name: oldest.prompt, exact: true }).count()).toBe(1);
    expect(await inboxList().getByRole('listitem').first().getAttribute('data-task-id')).toBe(oldest.task_id);

    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => suite.page.getByRole('button', { name: 'Dismiss' }).count(), POLL).toBe(0);
      await target.scrollIntoViewIfNeeded();
      await screenshot(suite.page, 'inbox-prompt-link', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });
  });

  it('scrolls to a prompt lower on the loaded page and focuses it, leaving it in its place', async () => {
    await goTo('#/inbox');
    await suite.page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const order = (): Promise<(string | null)[]> => inboxList().getByRole('listitem').evaluateAll((els) => els.map((el) => el.getAttribute('data-task-id')));
    const before = await order();
    const fortieth = waiting[39]!;
    await goTo(`#/inbox/${fortieth.task_id}`);
    const target = card(fortieth.prompt);
    await expect.poll(() => target.getAttribute('aria-current'), POLL).toBe('true');
    await expect.poll(() => isFocused(target.getByLabel('Your answer')), POLL).toBe(true);
    expect(await inViewport(target.getByRole('heading'))).toBe(true);
    expect(await inViewport(target.getByLabel('Your answer'))).toBe(true);
    await expectFrameInPlace();
    // Not moved: the list is in the same order as before the link.
    expect(await order()).toEqual(before);
    expect(before.indexOf(fortieth.task_id)).toBeGreaterThan(30);
  });
});

describe('a prompt that no longer waits', () => {
  it('says it was already answered, with a link to the task', async () => {
    const task = await createTask(suite.t.url, 'echo', { message: 'answered elsewhere', ask: 'Ship it today?' });
    await suite.t.waitForStatus(task.task_id, 'INPUT_REQUIRED', 60_000);
    const answered = await fetchJson('POST', `${suite.t.url}/agents/echo/tasks/${task.task_id}/input`, { input: { ship: true } });
    expect(answered.status, answered.text).toBe(200);
    await suite.t.waitForStatus(task.task_id, 'COMPLETED', 60_000);

    await goTo(`#/inbox/${task.task_id}`);
    const notice = suite.page.getByRole('status').filter({ hasText: 'This prompt was already answered' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Completed');
    await expect.poll(() => isFocused(notice), POLL).toBe(true);
    await expectFrameInPlace();
    expect(await inboxList().getByRole('listitem', { name: 'Ship it today?' }).count()).toBe(0);

    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await screenshot(suite.page, 'inbox-prompt-gone', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });

    await notice.getByRole('link', { name: 'Open the task' }).click();
    expect(new URL(suite.page.url()).hash).toBe(`#/tasks/${task.task_id}`);
    await suite.page.getByRole('region', { name: 'Task detail' }).getByText('Completed', { exact: true }).first().waitFor();
  });

  it('turns the open prompt into that notice when it is answered elsewhere meanwhile', async () => {
    const prompt = `Which bucket for the nightly backup ${Date.now()}?`;
    const task = await createTask(suite.t.url, 'echo', { message: 'backup', ask: prompt });
    await suite.t.waitForStatus(task.task_id, 'INPUT_REQUIRED', 60_000);
    await goTo(`#/inbox/${task.task_id}`);
    const target = card(prompt);
    await expect.poll(() => target.getAttribute('aria-current'), POLL).toBe('true');
    await expect.poll(() => isFocused(target.getByLabel('Your answer')), POLL).toBe(true);

    // An orchestrator answers over the A2A API while the person looks at it.
    const answered = await fetchJson('POST', `${suite.t.url}/agents/echo/tasks/${task.task_id}/input`, { input: { bucket: 's3://backups' } });
    expect(answered.status, answered.text).toBe(200);
    await target.waitFor({ state: 'detached' });
    const notice = suite.page.getByRole('status').filter({ hasText: /This prompt was already answered/ });
    await notice.waitFor();
    await notice.getByRole('link', { name: 'Open the task' }).waitFor();
    // The focus went away with the card: the notice takes it, so the keyboard is not left nowhere.
    await expect.poll(() => isFocused(notice), POLL).toBe(true);

    // Dismiss leaves the link: the inbox as usual.
    await notice.getByRole('link', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(new URL(suite.page.url()).hash).toBe('#/inbox');
  });

  it('says so when the task does not exist', async () => {
    await goTo('#/inbox/00000000-0000-4000-8000-000000000000');
    await suite.page.getByRole('status').filter({ hasText: 'No such task' }).waitFor();
  });
});

describe('the page', () => {
  it('threw no uncaught errors', () => {
    expect(suite.desk.pageErrors).toEqual([]);
  });
});
