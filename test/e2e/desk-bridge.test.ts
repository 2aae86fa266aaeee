/**
 * The desk UI with the desktop shell's `window.agentHost`, and without it. The Electron preload
 * cannot run here (Electron's binary is not installed), so a fake with the same contract
 * (test/support/fake-bridge.ts) is injected before the page's scripts, as the preload would be,
 * into one browser context; another context has none, like a plain browser. Against a real host:
 * the shell's "show this prompt" (tray item, notification click) opens that prompt; Settings →
 * Desktop shows the system's start-at-login state and changes it only on a click; Reveal and Open
 * call the bridge with the artifact's id; a task started from "Try it" is told when it ends, by a
 * notification through the bridge when the page is not in front, else by a toast.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Artifact } from '../../build/main/shared/protocol.js';
import { createTask, getTask, openView, POLL, screenshot, signIn, useDeskSuite, type DeskPage, type PageWindow } from '../support/desk.js';
import { bridgeCalls, fakeBridgeRecord, installFakeBridge, setFakeBridge, shellOpensPrompt } from '../support/fake-bridge.js';
import { fetchJson } from '../support/fetch-json.js';

vi.setConfig({ testTimeout: 120_000 });

/** A plain browser: no bridge. */
let plain: DeskPage;

/** The suite's page is the "desktop window": a page with the fake bridge. */
const suite = useDeskSuite({
  signIn: false,
  setup: async ({ t, desk, page, newDeskPage }) => {
    await desk.context.addInitScript(installFakeBridge, { loginItem: { enabled: false, supported: true } });
    await signIn(page, t.controlLoginUrl());
    plain = await newDeskPage();
    await signIn(plain.page, t.controlLoginUrl());
  },
});

function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement);
}

const hashOf = (p: Page): string => new URL(p.url()).hash;

function loginSwitch(p: Page): Locator {
  return p.getByRole('switch', { name: 'Start Agent Host when I log in' });
}

function desktopSection(p: Page): Locator {
  return p.getByRole('region', { name: 'Desktop', exact: true });
}

describe('the shell asks to show a prompt', () => {
  it('subscribes once, and opens the prompt it names with its answer field focused', async () => {
    const record = await fakeBridgeRecord(suite.page);
    expect(record.listenerCount).toBe(1);
    expect(record.calls.filter((c) => c.method === 'onOpenPrompt')).toHaveLength(1);

    const prompt = `Approve the invoice run ${randomUUID().slice(0, 8)}?`;
    const task = await createTask(suite.t.url, 'echo', { message: 'invoices', ask: prompt });
    await suite.t.waitForStatus(task.task_id, 'INPUT_REQUIRED', 60_000);
    await openView(suite.page, '#/tasks', 'Tasks');

    await shellOpensPrompt(suite.page, task.task_id);
    await expect.poll(() => hashOf(suite.page), POLL).toBe(`#/inbox/${task.task_id}`);
    const card = suite.page.getByRole('list', { name: 'Waiting for an answer' }).getByRole('listitem', { name: prompt, exact: true });
    await expect.poll(() => card.getAttribute('aria-current'), POLL).toBe('true');
    await expect.poll(() => isFocused(card.getByLabel('Your answer')), POLL).toBe(true);

    // Asked again while it is open (the notification clicked twice): focus comes back to it.
    await suite.page.getByRole('heading', { level: 1, name: 'Inbox' }).focus();
    expect(await isFocused(card.getByLabel('Your answer'))).toBe(false);
    await shellOpensPrompt(suite.page, task.task_id);
    await expect.poll(() => isFocused(card.getByLabel('Your answer')), POLL).toBe(true);

    // Something that is not a task id goes nowhere.
    await shellOpensPrompt(suite.page, '../../settings');
    await shellOpensPrompt(suite.page, '');
    expect(hashOf(suite.page)).toBe(`#/inbox/${task.task_id}`);
  });
});

describe('Settings → Desktop', () => {
  it('shows the system’s start-at-login state, and sets it once per click, only on a click', async () => {
    await openView(suite.page, '#/settings', 'Settings');
    await desktopSection(suite.page).waitFor();
    const toggle = loginSwitch(suite.page);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await bridgeCalls(suite.page, 'getLoginItem')).not.toHaveLength(0);
    expect(await bridgeCalls(suite.page, 'setLoginItem')).toEqual([]);

    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => suite.page.getByRole('status', { name: /Loading/ }).count(), POLL).toBe(0);
      await desktopSection(suite.page).scrollIntoViewIfNeeded();
      await screenshot(suite.page, 'settings-desktop', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), POLL).toBe('true');
    expect(await bridgeCalls(suite.page, 'setLoginItem')).toEqual([[true]]);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), POLL).toBe('false');
    expect(await bridgeCalls(suite.page, 'setLoginItem')).toEqual([[true], [false]]);
    // From the keyboard too.
    await toggle.focus();
    await suite.page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked'), POLL).toBe('true');
    expect(await bridgeCalls(suite.page, 'setLoginItem')).toEqual([[true], [false], [true]]);
  });

  it('reads the state again on the next visit: on when the system says on', async () => {
    await setFakeBridge(suite.page, { loginItem: { enabled: true, supported: true } });
    const reads = (await bridgeCalls(suite.page, 'getLoginItem')).length;
    await openView(suite.page, '#/inbox', 'Inbox');
    await openView(suite.page, '#/settings', 'Settings');
    await expect.poll(async () => (await bridgeCalls(suite.page, 'getLoginItem')).length, POLL).toBe(reads + 1);
    await expect.poll(() => loginSwitch(suite.page).getAttribute('aria-checked'), POLL).toBe('true');
    expect(await bridgeCalls(suite.page, 'setLoginItem')).toHaveLength(3);
  });

  it('keeps the switch where it was and says why when the system refuses', async () => {
    await setFakeBridge(suite.page, { failSetLoginItem: 'The login items database is locked' });
    const toggle = loginSwitch(suite.page);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    const error = suite.page.getByRole('alert').filter({ hasText: 'Could not turn off start at login: The login items database is locked' });
    await error.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await toggle.isEnabled()).toBe(true);
    await setFakeBridge(suite.page, { failSetLoginItem: null });
    await error.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('is not offered where the system cannot start apps at login', async () => {
    await setFakeBridge(suite.page, { loginItem: { enabled: false, supported: false } });
    const reads = (await bridgeCalls(suite.page, 'getLoginItem')).length;
    await openView(suite.page, '#/inbox', 'Inbox');
    await openView(suite.page, '#/settings', 'Settings');
    await expect.poll(async () => (await bridgeCalls(suite.page, 'getLoginItem')).length, POLL).toBe(reads + 1);
    await suite.page.getByRole('region', { name: 'Intake', exact: true }).waitFor();
    expect(await desktopSection(suite.page).count()).toBe(0);
    expect(await loginSwitch(suite.page).count()).toBe(0);
    await setFakeBridge(suite.page, { loginItem: { enabled: false, supported: true } });
  });

  it('is not there at all in a plain browser', async () => {
    const p = plain.page;
    expect(await p.evaluate(() => (globalThis as unknown as PageWindow & { agentHost?: unknown }).agentHost)).toBeUndefined();
    await openView(p, '#/settings', 'Settings');
    await p.getByRole('region', { name: 'Intake', exact: true }).waitFor();
    await p.getByRole('button', { name: 'Save settings' }).waitFor();
    expect(await desktopSection(p).count()).toBe(0);
    expect(await loginSwitch(p).count()).toBe(0);
  });
});

describe('artifact files', () => {
  it('Reveal and Open call the bridge with the artifact id; a plain browser offers neither', async () => {
    const filename = `notes-${randomUUID().slice(0, 8)}.txt`;
    const task = await createTask(suite.t.url, 'echo', { message: 'notes', artifacts: [{ type: 'file', filename, content: 'remember the milk\n' }] });
    await suite.t.waitForStatus(task.task_id, 'COMPLETED', 60_000);
    const listed = await fetchJson<{ artifacts: Artifact[] }>('GET', `${suite.t.url}/agents/echo/tasks/${task.task_id}/artifacts`);
    const artifactId = listed.body.artifacts[0]!.artifact_id;

    await openView(suite.page, `#/artifacts/${artifactId}`, 'Artifacts');
    const preview = suite.page.getByRole('region', { name: 'Artifact preview' });
    await preview.getByText('remember the milk').waitFor();
    await preview.getByRole('button', { name: 'Reveal in folder' }).click();
    await expect.poll(() => bridgeCalls(suite.page, 'revealArtifact'), POLL).toEqual([[artifactId]]);
    await preview.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => bridgeCalls(suite.page, 'openArtifact'), POLL).toEqual([[artifactId]]);

    await openView(plain.page, `#/artifacts/${artifactId}`, 'Artifacts');
    const plainPreview = plain.page.getByRole('region', { name: 'Artifact preview' });
    await plainPreview.getByText('remember the milk').waitFor();
    await plainPreview.getByRole('link', { name: 'Download' }).waitFor();
    expect(await plainPreview.getByRole('button', { name: 'Reveal in folder' }).count()).toBe(0);
    expect(await plainPreview.getByRole('button', { name: 'Open' }).count()).toBe(0);
  });
});

describe('a task started from Try it', () => {
  /**
   * Moves the person away from the desk page for real, as far as headless Chromium goes. Playwright
   * normally tells every page it has the focus (its focus emulation, so that pages of one browser do
   * not take it from each other); with that turned off for the desk page, `document.hasFocus()`
   * answers what Chromium itself knows, and another page of the same browser coming to the front
   * takes the focus away (the desk page gets a real `blur`), as another window or tab would.
   * (`document.hidden` stays false: headless Chromium shows every page; focus is what changes.)
   * Returns how to come back: the desk page in front again, with Playwright's emulation restored.
   */
  async function realFocus(): Promise<{ away(): Promise<void>; back(): Promise<void>; hasFocus(): Promise<boolean> }> {
    const cdp = await suite.desk.context.newCDPSession(suite.page);
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    let other: Page | undefined;
    let restored = false;
    const hasFocus = (): Promise<boolean> =>
      suite.page.evaluate(() => (globalThis as unknown as { document: { hasFocus(): boolean } }).document.hasFocus());
    await suite.page.bringToFront();
    return {
      hasFocus,
      async away() {
        other = await suite.desk.context.newPage();
        await other.bringToFront();
      },
      async back() {
        if (restored) return;
        restored = true;
        await other?.close();
        other = undefined;
        await suite.page.bringToFront();
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
        await cdp.detach();
      },
    };
  }

  /** Fills Echo's Try it form (as JSON) and creates the task; returns its id, from the host's answer. */
  async function tryEcho(input: Record<string, unknown>): Promise<string> {
    await openView(suite.page, '#/agents', 'Agents');
    const card = suite.page.getByRole('listitem', { name: 'Echo', exact: true });
    const form = card.getByRole('region', { name: 'Try Echo' });
    if ((await form.count()) === 0) await card.getByRole('button', { name: 'Try it' }).click();
    const json = form.getByLabel('JSON', { exact: true });
    if ((await json.count()) === 0) await form.getByRole('button', { name: 'Edit as JSON' }).click();
    await json.fill(JSON.stringify(input));
    const created = suite.page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/agents\/echo\/tasks$/.test(r.url()));
    await form.getByRole('button', { name: 'Create task' }).click();
    const response = await created;
    expect(response.status()).toBe(202);
    return ((await response.json()) as { task_id: string }).task_id;
  }

  const toastAbout = (message: string): Locator => suite.page.getByRole('status').filter({ hasText: message });

  it('in front: says so in a toast with a link to the task, and asks for no notification', async () => {
    const focus = await realFocus();
    try {
      expect(await focus.hasFocus()).toBe(true);
      const message = `in front ${randomUUID().slice(0, 8)}`;
      const taskId = await tryEcho({ message, delay_ms: 1500 });
      const toast = toastAbout(`Echo finished: {"message":"${message}"}`);
      await toast.waitFor();
      expect(await toast.getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(`#/tasks/${taskId}`);
      expect((await getTask(suite.t.url, 'echo', taskId)).status).toBe('COMPLETED');
      expect(await bridgeCalls(suite.page, 'showNotification')).toEqual([]);
    } finally {
      await focus.back();
    }
  });

  it('away (another window in front): exactly one native notification once it completed, and no toast', async () => {
    const focus = await realFocus();
    const message = `away ${randomUUID().slice(0, 8)}`;
    try {
      // 1.5 s of work: the task is still running when the person turns to something else.
      const taskId = await tryEcho({ message, delay_ms: 1500 });
      await focus.away();
      expect(await focus.hasFocus()).toBe(false);
      expect(await bridgeCalls(suite.page, 'showNotification')).toEqual([]);
      await suite.t.waitForStatus(taskId, 'COMPLETED', 60_000);
      const expected = [[{ title: 'Echo finished', body: JSON.stringify({ message }), task_id: taskId }]];
      await expect.poll(() => bridgeCalls(suite.page, 'showNotification'), POLL).toEqual(expected);
      expect(await toastAbout(message).count()).toBe(0);
      await focus.back();
      expect(await focus.hasFocus()).toBe(true);
      // Still one, and still no toast, now that the person is back.
      expect(await bridgeCalls(suite.page, 'showNotification')).toEqual(expected);
      expect(await toastAbout(message).count()).toBe(0);
    } finally {
      await focus.back();
    }
  });

  it('away, but the shell refuses the notification: the toast still says it', async () => {
    await setFakeBridge(suite.page, { failShowNotification: 'Notifications are turned off for Agent Host' });
    const focus = await realFocus();
    const message = `refused ${randomUUID().slice(0, 8)}`;
    try {
      const before = (await bridgeCalls(suite.page, 'showNotification')).length;
      const taskId = await tryEcho({ message, delay_ms: 1500 });
      await focus.away();
      const toast = toastAbout(`Echo finished: {"message":"${message}"}`);
      await toast.waitFor();
      expect(await toast.getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(`#/tasks/${taskId}`);
      expect(await bridgeCalls(suite.page, 'showNotification')).toHaveLength(before + 1);
    } finally {
      await focus.back();
      await setFakeBridge(suite.page, { failShowNotification: null });
    }
  });
});

describe('the pages', () => {
  it('threw no uncaught errors', () => {
    expect([...suite.desk.pageErrors, ...plain.pageErrors]).toEqual([]);
  });
});
