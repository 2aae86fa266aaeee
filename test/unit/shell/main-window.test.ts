import { describe, expect, it } from 'vitest';
import { DesktopChannel } from '../../../build/main/shared/desktop-bridge.js';
import { MainWindow } from '../../../build/main/shell/main-window.js';
import { FakeBrowserWindow, fakeElectron } from '../../support/fake-electron.js';

function setUp() {
  const fake = fakeElectron();
  let quitting = false;
  let tokens = 0;
  const window = new MainWindow(fake.electron, {
    controlUrl: 'http://127.0.0.1:7411',
    mintToken: () => `t${++tokens}`,
    preloadPath: '/app/build/preload/preload.cjs',
    isQuitting: () => quitting,
    log: () => undefined,
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { window, win: () => FakeBrowserWindow.instances[0]!, quit: () => (quitting = true), settle };
}

describe('main window', () => {
  it('is created on first show with a fresh token each load', async () => {
    const { window, win, settle } = setUp();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    window.show();
    await settle();
    window.show('#/settings');
    expect(win().loaded).toEqual(['http://127.0.0.1:7411/?token=t1#/inbox', 'http://127.0.0.1:7411/?token=t2#/settings']);
    window.show();
    expect(win().loaded).toHaveLength(2);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
  });

  it('a prompt asked for while the first page still loads becomes the route; once loaded, the page is told', async () => {
    const { window, win, settle } = setUp();
    window.show();
    window.openPrompt('task-1');
    expect(win().loaded.at(-1)).toBe('http://127.0.0.1:7411/?token=t2#/inbox/task-1');
    await settle();
    window.openPrompt('task-2');
    expect(win().webContents.sent).toEqual([{ channel: DesktopChannel.openPrompt, args: ['task-2'] }]);
    expect(win().loaded).toHaveLength(2);
  });

  it('closing hides it, unless the app is quitting', async () => {
    const { window, win, quit } = setUp();
    window.show();
    expect(win().userClose().defaultPrevented).toBe(true);
    expect(win().visible).toBe(false);
    expect(window.contentsId()).toBe(win().webContents.id);
    quit();
    expect(win().userClose().defaultPrevented).toBe(false);
    expect(window.contentsId()).toBeUndefined();
  });

  it('a crashed page is loaded again with a new token; a clean exit is left alone', async () => {
    const { window, win, settle } = setUp();
    window.show();
    await settle();
    win().webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(win().loaded.at(-1)).toBe('http://127.0.0.1:7411/?token=t2#/inbox');
    win().webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(win().loaded).toHaveLength(2);
  });

  it('says whether prompts are in view: focused, visible and on the Inbox', async () => {
    const { window, win } = setUp();
    expect(window.isShowingInbox()).toBe(false);
    window.show();
    expect(window.isShowingInbox()).toBe(true);
    win().webContents.url = 'http://127.0.0.1:7411/#/inbox/task-1';
    expect(window.isShowingInbox()).toBe(true);
    win().webContents.url = 'http://127.0.0.1:7411/#/inboxes';
    expect(window.isShowingInbox()).toBe(false);
    win().webContents.url = 'http://127.0.0.1:7411/#/tasks';
    expect(window.isShowingInbox()).toBe(false);
    win().webContents.url = 'http://127.0.0.1:7411/#/inbox';
    win().focused = false;
    expect(window.isShowingInbox()).toBe(false);
  });
});
