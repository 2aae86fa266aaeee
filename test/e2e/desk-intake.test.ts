/**
 * Intake paused, in the desk UI: in Debian's Chromium against a real host. Paused over the control
 * API (as the tray or another window would), every view shows the banner and the nav says so,
 * live; the banner's Resume and the Settings switch pause and resume (and the A2A API follows:
 * 503 while paused, 202 after); a refused change is a toast and nothing changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Locator } from 'playwright-core';
import type { IntakeState } from '../../build/main/shared/control-api.js';
import type { ControlClient } from '../support/control-client.js';
import { createTask, openView, POLL, screenshot, useDeskSuite } from '../support/desk.js';
import { fetchJson } from '../support/fetch-json.js';

vi.setConfig({ testTimeout: 120_000 });

let control: ControlClient;
const suite = useDeskSuite({
  prepareHost: async (t) => {
    control = await t.controlSession();
  },
});

function banner(): Locator {
  return suite.page.getByRole('region', { name: 'Intake paused' });
}

function navIndicator(): Locator {
  return suite.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Intake paused/ });
}

async function setPaused(paused: boolean): Promise<IntakeState> {
  const res = await control.request<IntakeState>('PUT', '/api/intake', { paused });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function intake(): Promise<IntakeState> {
  const res = await control.get<IntakeState>('/api/intake');
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** What an orchestrator gets when it creates a task now. */
async function createStatus(): Promise<number> {
  return (await fetchJson('POST', `${suite.t.url}/agents/echo/tasks`, { input: { message: 'knock knock' } })).status;
}

describe('paused from elsewhere', () => {
  it('shows the banner on every view and a mark in the nav, live, and neither once resumed', async () => {
    // Something in the Tasks view, for the screenshots.
    for (const message of ['summarise report #1041', 'translate release notes to German']) await createTask(suite.t.url, 'echo', { message });
    await openView(suite.page, '#/tasks', 'Tasks');
    expect(await banner().count()).toBe(0);

    await setPaused(true);
    await banner().waitFor();
    expect(await banner().textContent()).toContain('Intake paused — new tasks are refused (503) until you resume');
    await navIndicator().waitFor();
    expect(await createStatus()).toBe(503);

    for (const [hash, title] of [['#/inbox', 'Inbox'], ['#/artifacts', 'Artifacts'], ['#/agents', 'Agents'], ['#/settings', 'Settings']] as const) {
      await openView(suite.page, hash, title);
      await banner().getByRole('button', { name: 'Resume' }).waitFor();
    }

    await openView(suite.page, '#/tasks', 'Tasks');
    await suite.page.getByRole('option').filter({ hasText: 'translate release notes to German' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => suite.page.getByRole('status', { name: /Loading|Connecting/ }).count(), POLL).toBe(0);
      await expect.poll(() => suite.page.getByRole('button', { name: 'Dismiss' }).count(), POLL).toBe(0);
      await screenshot(suite.page, 'intake-paused', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });

    await setPaused(false);
    await banner().waitFor({ state: 'detached' });
    await navIndicator().waitFor({ state: 'detached' });
  });
});

describe('resuming from the desk', () => {
  it('the banner’s Resume resumes intake', async () => {
    await setPaused(true);
    const resume = banner().getByRole('button', { name: 'Resume' });
    await resume.click();
    await banner().waitFor({ state: 'detached' });
    expect(await intake()).toEqual({ paused: false });
    expect(await navIndicator().count()).toBe(0);
    expect(await createStatus()).toBe(202);
  });

  it('Settings → Intake pauses and resumes with its switch, from the keyboard too', async () => {
    await openView(suite.page, '#/settings', 'Settings');
    const section = suite.page.getByRole('region', { name: 'Intake', exact: true });
    const toggle = section.getByRole('switch', { name: 'Pause intake' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await section.getByText('Accepting new tasks.').waitFor();

    await toggle.click();
    await banner().waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked'), POLL).toBe('true');
    await section.getByText(/Paused since .*: new tasks are refused\./).waitFor();
    expect((await intake()).paused).toBe(true);
    expect(await createStatus()).toBe(503);
    await section.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await suite.page.emulateMedia({ colorScheme: scheme });
      // No toast over the view (they fade on their own).
      await expect.poll(() => suite.page.getByRole('button', { name: 'Dismiss' }).count(), POLL).toBe(0);
      await screenshot(suite.page, 'settings-intake-paused', scheme);
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });

    await toggle.focus();
    await suite.page.keyboard.press('Space');
    await banner().waitFor({ state: 'detached' });
    await expect.poll(() => toggle.getAttribute('aria-checked'), POLL).toBe('false');
    expect(await intake()).toEqual({ paused: false });
  });

  it('says why when the host cannot resume, and stays paused', async () => {
    await setPaused(true);
    await banner().waitFor();
    // A config.json broken by hand: the host cannot save the change, so it makes none (409).
    const configFile = join(suite.t.dataDir, 'config.json');
    const saved = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, '{ "server": ');
    try {
      await banner().getByRole('button', { name: 'Resume' }).click();
      const error = suite.page.getByRole('alert').filter({ hasText: /^Could not resume intake: / });
      await error.waitFor();
      expect(await banner().getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
      expect((await intake()).paused).toBe(true);
      // Errors stay until dismissed.
      await error.getByRole('button', { name: 'Dismiss' }).click();
      await error.waitFor({ state: 'detached' });
    } finally {
      writeFileSync(configFile, saved);
    }
    await banner().getByRole('button', { name: 'Resume' }).click();
    await banner().waitFor({ state: 'detached' });
    expect(await intake()).toEqual({ paused: false });
  });
});

describe('the page', () => {
  it('threw no uncaught errors', () => {
    expect(suite.desk.pageErrors).toEqual([]);
  });
});
