/**
 * A stand-in for Electron's BrowserWindow whose page is a real Chromium page (Playwright), with the
 * real preload bundle (build/preload/preload.cjs) run in it before the UI's scripts, its `electron`
 * module replaced by a shim whose ipcRenderer calls the shell's real IPC handlers (with the real
 * sender: this window's id and the calling frame's URL). Electron's binary cannot be installed on
 * this machine; this keeps everything else of the desktop app real: host, shell, preload, UI.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { FakeBrowserWindow, type FakeElectron } from './fake-electron.js';

const PRELOAD_BUNDLE = readFileSync(new URL('../../build/preload/preload.cjs', import.meta.url), 'utf8');

/** Runs in the page before its own scripts, as Electron runs a preload. */
function preloadScript(): string {
  return `(() => {
  const listeners = new Map();
  const invoke = window.__agentHostInvoke;
  // Main → page messages arrive through this (webContents.send in the stand-in).
  Object.defineProperty(window, '__agentHostDeliver', { value: (channel, args) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'ipc' }, ...args);
  } });
  const ipcRenderer = {
    invoke: (channel, ...args) => invoke(channel, args),
    on: (channel, listener) => { if (!listeners.has(channel)) listeners.set(channel, new Set()); listeners.get(channel).add(listener); },
    removeListener: (channel, listener) => { listeners.get(channel)?.delete(listener); },
  };
  const contextBridge = { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: Object.freeze({ ...api }) }) };
  const require = (name) => { if (name !== 'electron') throw new Error('a sandboxed preload cannot require ' + name); return { contextBridge, ipcRenderer }; };
  const module = { exports: {} };
  (function (require, module, exports) {
${PRELOAD_BUNDLE}
  })(require, module, module.exports);
})();`;
}

export interface ChromiumWindows {
  windows: ChromiumWindow[];
  /** The pages' uncaught errors. */
  pageErrors: string[];
}

export class ChromiumWindow extends FakeBrowserWindow {
  page: Page | undefined;
  private opening: Promise<Page> | undefined;

  constructor(
    options: Record<string, unknown>,
    private readonly context: BrowserContext,
    private readonly fake: FakeElectron,
    private readonly state: ChromiumWindows,
  ) {
    super(options);
    this.state.windows.push(this);
    // webContents.send reaches the page's preload listeners, as Electron's IPC would.
    const record = this.webContents.send.bind(this.webContents);
    this.webContents.send = (channel: string, ...args: unknown[]) => {
      record(channel, ...args);
      void this.page?.evaluate(([name, values]) => (globalThis as unknown as { __agentHostDeliver(c: string, a: unknown[]): void }).__agentHostDeliver(name, values), [channel, args] as const);
    };
  }

  private openPage(): Promise<Page> {
    this.opening ??= (async () => {
      const page = await this.context.newPage();
      page.on('pageerror', (error) => this.state.pageErrors.push(error.message));
      await page.exposeBinding('__agentHostInvoke', (source, channel: string, args: unknown[]) =>
        this.fake.invoke(channel, { contentsId: this.webContents.id, frameUrl: source.frame.url(), subframe: source.frame !== source.page.mainFrame() }, ...args),
      );
      await page.addInitScript({ content: preloadScript() });
      this.page = page;
      return page;
    })();
    return this.opening;
  }

  private lastLoad: Promise<void> = Promise.resolve();

  override loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    this.lastLoad = (async () => {
      const page = await this.openPage();
      await page.goto(url);
      this.webContents.emit('did-finish-load');
    })();
    return this.lastLoad;
  }

  /** The page, once the latest loadURL has finished. */
  async loadedPage(): Promise<Page> {
    await this.lastLoad;
    return this.page ?? this.openPage();
  }

  override destroy(): void {
    super.destroy();
    void this.page?.close();
  }
}

/** Makes `fake`'s BrowserWindow open real Chromium pages in `context`. */
export function useChromiumWindows(fake: FakeElectron, context: BrowserContext): ChromiumWindows {
  const state: ChromiumWindows = { windows: [], pageErrors: [] };
  const Window = class extends ChromiumWindow {
    constructor(options: Record<string, unknown>) {
      super(options, context, fake, state);
    }
  };
  (fake.electron as unknown as { BrowserWindow: unknown }).BrowserWindow = Window;
  return state;
}
