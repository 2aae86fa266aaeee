/**
 * The Tasks view over 100,000 tasks (seeded straight into the host's SQLite in one transaction):
 * the total is right, scrolling far down loads more rows, the status filter and the search narrow
 * the list to the right tasks, and the DOM holds only the visible rows; the Inbox over its 5,000
 * waiting tasks shows a page of cards, the whole count, and more on "Load more". No timings:
 * speed is for the benchmarks.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Locator } from 'playwright-core';
import { openView, POLL, screenshot, useDeskSuite } from '../support/desk.js';
import { seedTasks } from '../support/seed-tasks.js';

const COUNT = 100_000;
/** Fewer row elements than this means the list is virtualized (a page of the API is 200 rows). */
const MAX_ROWS_IN_DOM = 200;

vi.setConfig({ testTimeout: 180_000 });

const suite = useDeskSuite({
  host: { pluginDirs: [] },
  prepareHost: (t) => seedTasks(t.host.db, COUNT),
  // Straight to the Tasks view; the Inbox (5,000 of the seeded tasks wait for an answer) is tested last.
  signIn: '#/tasks',
  timeout: 180_000,
});

function list(): Locator {
  return suite.page.getByRole('listbox', { name: /^Tasks, / });
}

function subtitle(): Promise<string | null> {
  return suite.page.locator('header').filter({ has: suite.page.getByRole('heading', { level: 1, name: 'Tasks' }) }).getByRole('paragraph').textContent();
}

/** The seeded numbers (`task 12345 about …`) of the rows on screen. */
async function visibleTaskNumbers(): Promise<number[]> {
  const texts = await list().getByRole('option').allTextContents();
  return texts.map((text) => /task (\d+) about/.exec(text)?.[1]).filter((n): n is string => n !== undefined).map(Number);
}

function count(where: string, ...params: unknown[]): number {
  return (suite.t.host.db.prepare(`SELECT count(*) AS n FROM tasks WHERE ${where}`).get(...params) as { n: number }).n;
}

/** The view's subtitle for `n` tasks matching the filters, as the UI words it ("1 task match", "10,000 tasks match"). */
const matchText = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'task' : 'tasks'} match`;

describe('the Tasks view with 100,000 tasks', () => {
  it('shows the total and the newest tasks first, with a bounded number of rows in the DOM', async () => {
    await openView(suite.page, '#/tasks', 'Tasks');
    await expect.poll(subtitle, POLL).toBe('100,000 tasks');
    await list().getByRole('option').first().waitFor();
    expect(await list().getByRole('option').first().textContent()).toContain(`task ${COUNT - 1} about`);
    expect(await list().getByRole('option').count()).toBeLessThan(MAX_ROWS_IN_DOM);
    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await screenshot(suite.page, 'tasks-100k', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });
  });

  it('loads more rows as it scrolls far down, keeping the DOM small', async () => {
    // Five pages down (1,000 rows): each time the end of what is loaded comes into view, the next page loads.
    const target = COUNT - 1000;
    for (let round = 0; round < 20; round++) {
      const lowest = Math.min(...(await visibleTaskNumbers()));
      if (lowest < target) break;
      const height = await list().evaluate((el) => el.scrollHeight);
      // The mouse wheel over the list, as far as the rows loaded so far reach.
      await list().hover();
      await suite.page.mouse.wheel(0, height);
      // The next page arrived (the list got taller) or, near the end, the rows on screen moved.
      await expect.poll(async () => (await list().evaluate((el) => el.scrollHeight)) > height || Math.min(...(await visibleTaskNumbers())) < lowest, POLL).toBe(true);
    }
    const numbers = await visibleTaskNumbers();
    expect(Math.min(...numbers)).toBeLessThan(target);
    // Still newest first, one after another.
    const sorted = [...numbers].sort((a, b) => b - a);
    expect(numbers).toEqual(sorted);
    expect(await list().getByRole('option').count()).toBeLessThan(MAX_ROWS_IN_DOM);
    await expect.poll(subtitle, POLL).toBe('100,000 tasks');
  });

  it('narrows the list by status, then by search, and clears back to all', async () => {
    await suite.page.getByRole('button', { name: /^Status:/ }).click();
    await suite.page.getByRole('group', { name: 'Status filter' }).getByLabel('Failed').check();
    await suite.page.keyboard.press('Escape');
    const failed = count(`status = 'FAILED'`);
    expect(failed).toBeGreaterThan(0);
    await expect.poll(subtitle, POLL).toBe(matchText(failed));
    await expect.poll(async () => (await list().getByRole('option').allTextContents()).every((row) => row.includes('Failed')), POLL).toBe(true);
    expect(await list().getByRole('option').count()).toBeGreaterThan(0);
    expect(await list().getByRole('option').count()).toBeLessThan(MAX_ROWS_IN_DOM);

    // A failed task's error message, searched within the failed ones: exactly that task.
    const one = suite.t.host.db.prepare(`SELECT input, error_message FROM tasks WHERE status = 'FAILED' ORDER BY seq LIMIT 1 OFFSET 2345`).get() as { input: string; error_message: string };
    const needle = one.error_message;
    const matching = count(`status = 'FAILED' AND (instr(error_message, ?) > 0 OR instr(input, ?) > 0)`, needle, needle);
    await suite.page.getByRole('searchbox', { name: 'Search tasks' }).fill(needle);
    await expect.poll(subtitle, POLL).toBe(matchText(matching));
    await list().getByRole('option').filter({ hasText: (JSON.parse(one.input) as { message: string }).message }).waitFor();

    await suite.page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(subtitle, POLL).toBe('100,000 tasks');
  });

  it('searches all 100,000 tasks, wildcards and quotes taken literally', async () => {
    // Every 1,000th seeded task reads `50% off_sale "quoted" #N`: `%` and `_` must not act as LIKE wildcards.
    const search = suite.page.getByRole('searchbox', { name: 'Search tasks' });
    await search.fill('50% off_sale "quoted"');
    const expected = COUNT / 1000;
    await expect.poll(subtitle, POLL).toBe(matchText(expected));
    await expect.poll(async () => (await list().getByRole('option').allTextContents()).every((row) => row.includes('50% off_sale')), POLL).toBe(true);

    await search.fill('task 4242 about');
    await expect.poll(subtitle, POLL).toBe(matchText(1));
    await list().getByRole('option').filter({ hasText: 'task 4242 about' }).waitFor();
    expect(await list().getByRole('option').count()).toBe(1);

    await search.fill('');
    await expect.poll(subtitle, POLL).toBe('100,000 tasks');
  });

  it('opens the Inbox on its first page of cards, with all 5,000 counted, and "Load more" adds the next', async () => {
    const waiting = count(`status = 'INPUT_REQUIRED'`);
    expect(waiting).toBe(5000);
    await openView(suite.page, '#/inbox', 'Inbox');
    const inboxSubtitle = suite.page.locator('header').filter({ has: suite.page.getByRole('heading', { level: 1, name: 'Inbox' }) }).getByRole('paragraph');
    await expect.poll(() => inboxSubtitle.textContent(), POLL).toBe('5,000 tasks waiting for your answer');
    await expect.poll(() => suite.page.title(), POLL).toBe('(5000) Agent Host');
    const badge = suite.page.getByRole('navigation', { name: 'Main' }).getByLabel('5,000 waiting for an answer');
    expect(await badge.textContent()).toBe('5,000');

    const cards = suite.page.getByRole('list', { name: 'Waiting for an answer' }).getByRole('listitem');
    // The newest question first: seeded task 99,997 is the last one waiting.
    await cards.first().getByRole('heading', { name: 'Which colour for task 99997?' }).waitFor();
    const firstPage = await cards.count();
    expect(firstPage).toBeGreaterThan(0);
    expect(firstPage).toBeLessThan(waiting);
    await suite.page.getByText(`Showing ${firstPage} of 5,000`).waitFor();

    // From the keyboard: focus the button and press Enter.
    const more = suite.page.getByRole('button', { name: 'Load more' });
    await more.focus();
    await suite.page.keyboard.press('Enter');
    await expect.poll(() => cards.count(), POLL).toBe(firstPage * 2);
    const prompts = await cards.getByRole('heading').allTextContents();
    const numbers = prompts.map((text) => Number(/task (\d+)\?/.exec(text)?.[1]));
    // Newest first, every 20th seeded task, no duplicates or gaps across the pages.
    expect(numbers).toEqual(Array.from({ length: firstPage * 2 }, (_, k) => 99_997 - 20 * k));
    await expect.poll(() => inboxSubtitle.textContent(), POLL).toBe('5,000 tasks waiting for your answer');
    expect(await suite.page.title()).toBe('(5000) Agent Host');
  });

  it('threw no uncaught errors', () => {
    expect(suite.desk.pageErrors).toEqual([]);
  });
});
