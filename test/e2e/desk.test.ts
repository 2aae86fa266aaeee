/**
 * The desk UI in Debian's Chromium against a real host (ephemeral ports, SQLite in a temp dir,
 * real worker processes): live tasks, the inbox, artifact previews (and that agent-written markup
 * never runs), cancelling, the keyboard, and a screenshot of every view in light and dark.
 *
 * The tests share one signed-in page and run in order; each makes its own tasks over the A2A API,
 * as an orchestrator would, and waits on what the UI shows (no fixed sleeps).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Artifact, Task } from '../../build/main/shared/protocol.js';
import { createTask, getTask, openView, POLL, screenshot, useDeskSuite, type PageWindow } from '../support/desk.js';
import { fetchJson } from '../support/fetch-json.js';

const DESK_PLUGINS = fileURLToPath(new URL('../fixtures/desk-plugins', import.meta.url));
// Above the UI waits (UI_TIMEOUT), so a stuck step reports what it waited for.
vi.setConfig({ testTimeout: 120_000 });

const suite = useDeskSuite({ host: { pluginDirs: [DESK_PLUGINS] } });

const unique = (): string => randomUUID().slice(0, 8);
const shortId = (taskId: string): string => taskId.slice(0, 8);

/** The Tasks list's row of a task (found by its short id, which every row shows). */
function taskRow(taskId: string): Locator {
  return suite.page.getByRole('listbox', { name: /^Tasks, / }).getByRole('option').filter({ hasText: shortId(taskId) });
}

function detailPane(): Locator {
  return suite.page.getByRole('region', { name: 'Task detail' });
}

/** The status chip in the open task's header (its tooltip is the protocol's status name). */
function detailStatus(status: string): Locator {
  return detailPane().getByTitle(status, { exact: true });
}

async function openTask(taskId: string): Promise<void> {
  await suite.page.evaluate((id) => {
    (globalThis as unknown as PageWindow).location.hash = `#/tasks/${id}`;
  }, taskId);
  await detailPane().getByRole('heading', { level: 2, name: new RegExp(shortId(taskId)) }).waitFor();
}

describe('live data', () => {
  it('shows a task created over the A2A API in the Tasks view as it happens, up to Completed, without reloading', async () => {
    await openView(suite.page, '#/tasks', 'Tasks');
    await suite.page.evaluate(() => {
      (globalThis as unknown as PageWindow).sameDocument = true;
    });

    // `ask` holds the task at INPUT_REQUIRED until the orchestrator's answer: a state we can see.
    const message = `live task ${unique()}`;
    const task = await createTask(suite.t.url, 'echo', { message, ask: 'Shall I go on?' });
    const row = taskRow(task.task_id);
    await row.getByText('Needs input', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('Shall I go on?');

    const answered = await fetchJson('POST', `${suite.t.url}/agents/echo/tasks/${task.task_id}/input`, { input: { go: true } });
    expect(answered.status, answered.text).toBe(200);
    await row.getByText('Completed', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(message);

    expect(await suite.page.evaluate(() => (globalThis as unknown as PageWindow).sameDocument)).toBe(true);
  });

  it('puts a question in the Inbox and the window title; the answer form completes the task', async () => {
    await openView(suite.page, '#/inbox', 'Inbox');
    await expect.poll(() => suite.page.title(), POLL).toBe('Agent Host');

    const prompt = `Which name goes on invoice #${unique()}?`;
    const task = await createTask(suite.t.url, 'echo', { message: 'invoice', ask: prompt });
    const card = suite.page.getByRole('list', { name: 'Waiting for an answer' }).getByRole('listitem', { name: prompt });
    await card.waitFor();
    await expect.poll(() => suite.page.title(), POLL).toBe('(1) Agent Host');
    await suite.page.getByRole('navigation', { name: 'Main' }).getByLabel('1 waiting for an answer').waitFor();

    await card.getByLabel('Your answer').fill('Ada Lovelace');
    await card.getByRole('button', { name: 'Send answer' }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => suite.page.title(), POLL).toBe('Agent Host');
    await suite.page.getByText('You’re all caught up').waitFor();

    await expect.poll(async () => (await getTask(suite.t.url, 'echo', task.task_id)).status, POLL).toBe('COMPLETED');
    const done = await getTask(suite.t.url, 'echo', task.task_id);
    expect(done.output).toEqual({ message: 'invoice', answer: { text: 'Ada Lovelace' } });
  });
});

describe('artifacts', () => {
  const SCRIPT_HTML = '<script>window.__pwned=1</script><b>bold?</b>';
  const IMG_HTML = '<img src=x onerror="window.__pwned=2">';
  let taskId = '';

  beforeAll(async () => {
    if (suite.skipReason) return;
    const task = await createTask(suite.t.url, 'echo', {
      message: 'nightly import',
      artifacts: [
        { type: 'text', content: 'Imported 1,204 rows from crm.csv\nSkipped 3 rows with missing email.\n', description: 'Import summary' },
        { type: 'json', content: '{"rows":1204,"skipped":3,"ok":true}', description: 'Import stats' },
        { type: 'file', filename: 'hello.py', content: 'print("hello from an artifact")\n', description: 'A greeting' },
        { type: 'file', filename: 'x.html', content: SCRIPT_HTML },
        { type: 'text', content: IMG_HTML, description: 'Markup in text' },
      ],
    });
    taskId = task.task_id;
    await suite.t.waitForStatus(taskId, 'COMPLETED', 60_000);
  }, 90_000);

  async function expectNothingRan(): Promise<void> {
    expect(await suite.page.evaluate(() => (globalThis as unknown as PageWindow).__pwned)).toBeUndefined();
    expect(await suite.page.locator('img[src="x"]').count()).toBe(0);
    expect(await suite.page.locator('script', { hasText: '__pwned' }).count()).toBe(0);
  }

  it('previews text, JSON and a file in the task detail; markup shows as text and never runs', async () => {
    await openTask(taskId);
    const tab = detailPane().getByRole('tab', { name: /Artifacts/ });
    await expect.poll(() => tab.textContent(), POLL).toContain('5');
    await tab.click();
    const panel = detailPane().getByRole('tabpanel');

    // The first artifact is open already: the text itself.
    await panel.getByText('Imported 1,204 rows from crm.csv').waitFor();
    await panel.getByRole('button', { name: /Import stats/ }).click();
    await panel.getByText('"rows": 1204').waitFor();
    await panel.getByRole('button', { name: /hello\.py/ }).click();
    await panel.getByText('print("hello from an artifact")').waitFor();
    await panel.getByRole('button', { name: /x\.html/ }).click();
    await panel.getByText(SCRIPT_HTML).waitFor();
    await panel.getByRole('button', { name: /Markup in text/ }).click();
    await panel.getByText(IMG_HTML).waitFor();
    await expectNothingRan();
  });

  it('previews the chosen artifact in the Artifacts view, markup as text that never runs', async () => {
    await openView(suite.page, '#/artifacts', 'Artifacts');
    const list = suite.page.getByRole('listbox', { name: 'Artifacts' });
    const preview = suite.page.getByRole('region', { name: 'Artifact preview' });

    await list.getByRole('option').filter({ hasText: 'hello.py' }).click();
    await preview.getByRole('heading', { name: 'hello.py' }).waitFor();
    await preview.getByText('print("hello from an artifact")').waitFor();

    await list.getByRole('option').filter({ hasText: 'Import summary' }).click();
    await preview.getByText('Skipped 3 rows with missing email.').waitFor();

    await list.getByRole('option').filter({ hasText: 'x.html' }).click();
    await preview.getByRole('heading', { name: 'x.html' }).waitFor();
    await preview.getByText(SCRIPT_HTML).waitFor();
    await expectNothingRan();

    await list.getByRole('option').filter({ hasText: 'Markup in text' }).click();
    await preview.getByText(IMG_HTML).waitFor();
    await expectNothingRan();
  });

  it('serves the HTML file sandboxed, so opening its content URL in a tab runs nothing either', async () => {
    const res = await fetchJson<{ artifacts: Artifact[] }>('GET', `${suite.t.url}/agents/echo/tasks/${taskId}/artifacts`);
    const html = res.body.artifacts.find((a) => a.metadata.filename === 'x.html')!;
    const tab = await suite.desk.context.newPage();
    try {
      const response = await tab.goto(`${suite.t.controlUrl}/api/artifacts/${html.artifact_id}/content`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain('sandbox');
      expect(await tab.evaluate(() => (globalThis as unknown as PageWindow).__pwned)).toBeUndefined();
    } finally {
      await tab.close();
    }
  });
});

describe('cancel', () => {
  it('cancels a running task from its detail, after confirming', async () => {
    const task = await createTask(suite.t.url, 'echo', { message: `long job ${unique()}`, delay_ms: 60_000 });
    await suite.t.waitForStatus(task.task_id, 'WORKING', 60_000);
    await openTask(task.task_id);
    await detailStatus('WORKING').waitFor();

    await detailPane().getByRole('button', { name: 'Cancel task' }).click();
    const dialog = suite.page.getByRole('dialog', { name: 'Cancel this task?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel task' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await detailStatus('CANCELLED').waitFor();
    expect(await detailPane().getByRole('button', { name: 'Cancel task' }).count()).toBe(0);
    await taskRow(task.task_id).getByText('Cancelled', { exact: true }).waitFor();
    expect((await getTask(suite.t.url, 'echo', task.task_id)).status).toBe('CANCELLED');
  });
});

describe('keyboard', () => {
  it('moves between views with g-sequences, walks the list with j and Enter, closes with Esc', async () => {
    await openView(suite.page, '#/agents', 'Agents');
    const heading = (name: string): Locator => suite.page.getByRole('heading', { level: 1, name, exact: true });

    await suite.page.keyboard.press('g');
    await suite.page.keyboard.press('t');
    await heading('Tasks').waitFor();
    expect(new URL(suite.page.url()).hash).toBe('#/tasks');

    // j puts the cursor on a row (the next one after the last task opened), Enter opens it.
    await suite.page.keyboard.press('j');
    const current = suite.page.getByRole('listbox', { name: /^Tasks, / }).getByRole('option', { selected: true });
    await current.waitFor();
    await suite.page.keyboard.press('Enter');
    await detailPane().getByRole('tablist').waitFor();
    const opened = /^#\/tasks\/([0-9a-f-]{36})$/.exec(new URL(suite.page.url()).hash)?.[1];
    expect(opened).toBeDefined();
    expect(await current.textContent()).toContain(shortId(opened!));
    await suite.page.keyboard.press('Escape');
    await detailPane().waitFor({ state: 'detached' });

    for (const [key, name] of [['f', 'Artifacts'], ['s', 'Settings'], ['a', 'Agents'], ['i', 'Inbox']] as const) {
      await suite.page.keyboard.press('g');
      await suite.page.keyboard.press(key);
      await heading(name).waitFor();
    }

    await suite.page.keyboard.press('?');
    const shortcuts = suite.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.waitFor();
    await suite.page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'hidden' });
  });
});

describe('screenshots', () => {
  it('saves every view, light and dark', async () => {
    // A desk with something in every view.
    const waiting = await createTask(suite.t.url, 'echo', { message: 'export invoices', ask: 'Which folder should I save the exported invoices to?' });
    const release = await createTask(suite.t.url, 'release-approver', { service: 'billing-api', version: '4.2.0', environment: 'production', replicas: 3 });
    const failed = await createTask(suite.t.url, 'echo', {
      message: 'sync contacts',
      fail: { code: 'QUOTA_EXCEEDED', message: 'The CRM API allows 500 calls per hour; this run needed 742.' },
    });
    const running = await createTask(suite.t.url, 'echo', { message: 'reindex the search cluster', log_lines: 3, delay_ms: 600_000 });
    const done: Task[] = [];
    for (const message of ['summarise report #1041', 'translate release notes to German', 'draft reply to ticket #58812']) {
      done.push(await createTask(suite.t.url, 'echo', { message }));
    }
    await Promise.all([
      suite.t.waitForStatus(waiting.task_id, 'INPUT_REQUIRED', 60_000),
      suite.t.waitForStatus(release.task_id, 'INPUT_REQUIRED', 60_000),
      suite.t.waitForStatus(failed.task_id, 'FAILED', 60_000),
      suite.t.waitForStatus(running.task_id, 'WORKING', 60_000),
      ...done.map((d) => suite.t.waitForStatus(d.task_id, 'COMPLETED', 60_000)),
    ]);

    const views: Array<[name: string, show: () => Promise<void>]> = [
      [
        'inbox',
        async () => {
          await openView(suite.page, '#/inbox', 'Inbox');
          await suite.page.getByRole('listitem', { name: 'Which folder should I save the exported invoices to?' }).waitFor();
          await suite.page.getByRole('listitem', { name: 'Roll out billing-api 4.2.0 to production?' }).getByLabel('Approve the rollout').waitFor();
        },
      ],
      [
        'tasks',
        async () => {
          await openView(suite.page, '#/tasks', 'Tasks');
          await taskRow(done[2]!.task_id).getByText('Completed', { exact: true }).waitFor();
          await taskRow(running.task_id).getByText('Working', { exact: true }).waitFor();
        },
      ],
      [
        'task-detail',
        async () => {
          await openView(suite.page, '#/tasks', 'Tasks');
          await openTask(release.task_id);
          await detailPane().getByRole('region', { name: 'Waiting for your answer' }).getByLabel('Approve the rollout').waitFor();
          await detailPane().getByText(/release-approver\/tasks\//).waitFor();
        },
      ],
      [
        'artifacts',
        async () => {
          await openView(suite.page, '#/artifacts', 'Artifacts');
          await suite.page.getByRole('listbox', { name: 'Artifacts' }).getByRole('option').filter({ hasText: 'rollout.sh' }).click();
          await suite.page.getByRole('region', { name: 'Artifact preview' }).getByText('kubectl rollout restart deploy/billing-api').waitFor();
        },
      ],
      [
        'agents',
        async () => {
          await openView(suite.page, '#/agents', 'Agents');
          await suite.page.getByRole('heading', { name: 'Release Approver' }).waitFor();
          await suite.page.getByRole('heading', { name: 'Echo', exact: true }).waitFor();
        },
      ],
      [
        'settings',
        async () => {
          await openView(suite.page, '#/settings', 'Settings');
          await suite.page.getByRole('button', { name: 'Save settings' }).waitFor();
        },
      ],
    ];
    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      expect(await suite.page.evaluate(() => (globalThis as unknown as PageWindow).matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
      for (const [name, show] of views) {
        await show();
        // Nothing still loading in the shot.
        await expect.poll(() => suite.page.getByRole('status', { name: /Loading|Connecting/ }).count(), POLL).toBe(0);
        // No toast over the view (they fade on their own).
        await expect.poll(() => suite.page.getByRole('button', { name: 'Dismiss' }).count(), POLL).toBe(0);
        await screenshot(suite.page, name, scheme);
      }
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });
  });
});

describe('the page', () => {
  it('threw no uncaught errors', () => {
    expect(suite.desk.pageErrors).toEqual([]);
  });
});
