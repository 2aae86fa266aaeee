/**
 * The desk UI with the desktop shell's `window.agentHost`, and without it. The Electron preload
 * cannot run here (Electron's binary is not installed), so a fake with the same contract
 * (test/support/fake-bridge.ts) is injected before the page's scripts, as the preload would be,
 * into one browser context; another context has none, like a plain browser. Against a real host:
 * the shell's "show this prompt" (tray item, notification click) opens that prompt; Settings →
 * Desktop shows the system's start-at-login state and changes it only on a click; Reveal and Open
 * call the bridge with the artifact's id.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Artifact } from '../../build/main/shared/protocol.js';
import { createTask, openView, POLL, screenshot, signIn, useDeskSuite, type DeskPage, type PageWindow } from '../support/desk.js';
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

describe('the pages', () => {
  it('threw no uncaught errors', () => {
    expect([...suite.desk.pageErrors, ...plain.pageErrors]).toEqual([]);
  });
});
