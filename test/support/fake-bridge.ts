/**
 * A stand-in for the desktop shell's preload facade (`window.agentHost`, contract in
 * main/shared/desktop-bridge.ts), installed with `context.addInitScript(installFakeBridge, …)`
 * before the page's own scripts run, as the preload would be. The real preload cannot run in these
 * tests: Electron's binary is not installed here, so the page runs in plain Chromium. The fake
 * records every call on `window.__fakeBridge`, and keeps the page's onOpenPrompt listeners there so
 * a test can play the shell (a tray item, a notification click).
 */
import type { Page } from 'playwright-core';

export interface FakeLoginItem {
  enabled: boolean;
  supported: boolean;
}

export interface FakeBridgeOptions {
  loginItem: FakeLoginItem;
}

/** What the fake records in the page (`window.__fakeBridge`); tests may change `loginItem`, `failSetLoginItem` and `failShowNotification`. */
export interface FakeBridgeRecord {
  calls: { method: string; args: unknown[] }[];
  loginItem: FakeLoginItem;
  /** When set, setLoginItem rejects with this message (as the main process would on an OS error). */
  failSetLoginItem?: string;
  /** When set, showNotification rejects with this message (notifications turned off, say). */
  failShowNotification?: string;
  listeners: ((taskId: string) => void)[];
  unsubscribed: number;
}

interface FakeBridgeWindow {
  location: { origin: string };
  __fakeBridge?: FakeBridgeRecord;
  agentHost?: unknown;
}

/** Runs in the page (serialized by Playwright): it must not use anything from this module's scope. */
export function installFakeBridge(options: FakeBridgeOptions): void {
  const page = globalThis as unknown as FakeBridgeWindow;
  const record: FakeBridgeRecord = { calls: [], loginItem: { ...options.loginItem }, listeners: [], unsubscribed: 0 };
  page.__fakeBridge = record;
  const called = (method: string, ...args: unknown[]): void => {
    record.calls.push({ method, args });
  };
  page.agentHost = {
    revealArtifact: async (artifactId: string) => called('revealArtifact', artifactId),
    showNotification: async (notification: unknown) => {
      called('showNotification', notification);
      if (record.failShowNotification !== undefined) throw new Error(record.failShowNotification);
    },
    openArtifact: async (artifactId: string) => called('openArtifact', artifactId),
    getInfo: async () => {
      called('getInfo');
      return { control_url: page.location.origin, a2a_url: 'http://127.0.0.1:0', version: '0.0.0-test', platform: 'linux', desktop_session: true };
    },
    getLoginItem: async () => {
      called('getLoginItem');
      return { ...record.loginItem };
    },
    setLoginItem: async (enabled: boolean) => {
      called('setLoginItem', enabled);
      if (record.failSetLoginItem !== undefined) throw new Error(record.failSetLoginItem);
      record.loginItem = { ...record.loginItem, enabled };
      return { ...record.loginItem };
    },
    onOpenPrompt: (listener: (taskId: string) => void) => {
      called('onOpenPrompt');
      record.listeners.push(listener);
      return () => {
        record.unsubscribed++;
        record.listeners = record.listeners.filter((l) => l !== listener);
      };
    },
  };
}

/** A copy of what the fake recorded so far. */
export function fakeBridgeRecord(page: Page): Promise<Omit<FakeBridgeRecord, 'listeners'> & { listenerCount: number }> {
  return page.evaluate(() => {
    const r = (globalThis as unknown as FakeBridgeWindow).__fakeBridge!;
    return {
      calls: r.calls,
      loginItem: r.loginItem,
      unsubscribed: r.unsubscribed,
      listenerCount: r.listeners.length,
      ...(r.failSetLoginItem !== undefined ? { failSetLoginItem: r.failSetLoginItem } : {}),
      ...(r.failShowNotification !== undefined ? { failShowNotification: r.failShowNotification } : {}),
    };
  });
}

/** Calls of one method, with their arguments. */
export async function bridgeCalls(page: Page, method: string): Promise<unknown[][]> {
  return (await fakeBridgeRecord(page)).calls.filter((c) => c.method === method).map((c) => c.args);
}

/** Plays the shell: asks the page to show a task's prompt (what a tray item or notification click does). */
export function shellOpensPrompt(page: Page, taskId: string): Promise<void> {
  return page.evaluate((id) => {
    for (const listener of (globalThis as unknown as FakeBridgeWindow).__fakeBridge!.listeners) listener(id);
  }, taskId);
}

/** Changes what the fake "OS" answers from now on. */
export function setFakeBridge(
  page: Page,
  change: { loginItem?: FakeLoginItem; failSetLoginItem?: string | null; failShowNotification?: string | null },
): Promise<void> {
  return page.evaluate((c) => {
    const r = (globalThis as unknown as FakeBridgeWindow).__fakeBridge!;
    if (c.loginItem) r.loginItem = c.loginItem;
    if (c.failSetLoginItem === null) delete r.failSetLoginItem;
    else if (c.failSetLoginItem !== undefined) r.failSetLoginItem = c.failSetLoginItem;
    if (c.failShowNotification === null) delete r.failShowNotification;
    else if (c.failShowNotification !== undefined) r.failShowNotification = c.failShowNotification;
  }, change);
}
