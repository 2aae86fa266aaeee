/**
 * The renderer's feature detection of the desktop shell's `window.agentHost` (read from
 * globalThis, which is `window` in the page): nothing without it, only what a partial bridge has.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { desktopActions, desktopNotifier, loginItemControl, onOpenPrompt } from '../../../renderer/src/desktop.js';
import { parseControlEvent } from '../../../renderer/src/store/control-events.js';

const global = globalThis as { agentHost?: unknown };

afterEach(() => {
  delete global.agentHost;
});

describe('without a bridge (a plain browser)', () => {
  it('offers no native helper, no login item and no prompt requests', () => {
    expect(desktopActions()).toEqual({});
    expect(loginItemControl()).toBeUndefined();
    expect(onOpenPrompt(() => undefined)).toBeUndefined();
    expect(desktopNotifier()).toBeUndefined();
  });

  it('ignores an agentHost that is not an object', () => {
    global.agentHost = 'nope';
    expect(desktopActions()).toEqual({});
    expect(loginItemControl()).toBeUndefined();
  });
});

describe('with a partial bridge (a preload from another version)', () => {
  it('offers exactly the functions that are there, called on the bridge', async () => {
    const revealed: string[] = [];
    const bridge = {
      calls: revealed,
      revealArtifact(id: string) {
        this.calls.push(id);
        return Promise.resolve();
      },
      openArtifact: 'not a function',
      getLoginItem: () => Promise.resolve({ enabled: true, supported: true }),
    };
    global.agentHost = bridge;
    const actions = desktopActions();
    expect(Object.keys(actions)).toEqual(['reveal']);
    await actions.reveal!('art-1');
    expect(revealed).toEqual(['art-1']);
    // Reading without setting is no setting at all.
    expect(loginItemControl()).toBeUndefined();
    expect(onOpenPrompt(() => undefined)).toBeUndefined();
    expect(desktopNotifier()).toBeUndefined();
  });
});

describe('with the whole bridge', () => {
  it('reads and sets the login item through it', async () => {
    const sets: boolean[] = [];
    global.agentHost = {
      getLoginItem: () => Promise.resolve({ enabled: false, supported: true }),
      setLoginItem: (enabled: boolean) => {
        sets.push(enabled);
        return Promise.resolve({ enabled, supported: true });
      },
    };
    const control = loginItemControl()!;
    expect(await control.get()).toEqual({ enabled: false, supported: true });
    expect(await control.set(true)).toEqual({ enabled: true, supported: true });
    expect(sets).toEqual([true]);
  });

  it('passes prompt requests with a task id on, drops anything else, and unsubscribes', () => {
    let shell: ((taskId: unknown) => void) | undefined;
    let unsubscribed = 0;
    global.agentHost = {
      onOpenPrompt(listener: (taskId: unknown) => void) {
        shell = listener;
        return () => {
          unsubscribed++;
          shell = undefined;
        };
      },
    };
    const asked: string[] = [];
    const unsubscribe = onOpenPrompt((taskId) => asked.push(taskId));
    shell!('0b6f2c1e-8d1a-4c53-9a57-2f1f7a8e4b10');
    shell!('../../etc/passwd');
    shell!(42);
    shell!('');
    expect(asked).toEqual(['0b6f2c1e-8d1a-4c53-9a57-2f1f7a8e4b10']);
    unsubscribe!();
    expect(unsubscribed).toBe(1);
    expect(shell).toBeUndefined();
  });
});

describe('notifications', () => {
  it('are shown through the bridge, called on it, at once', async () => {
    const bridge = {
      shown: [] as unknown[],
      showNotification(notification: unknown) {
        this.shown.push(notification);
        return Promise.resolve();
      },
    };
    global.agentHost = bridge;
    const notify = desktopNotifier()!;
    const sent = notify({ title: 'Echo finished', body: '{}', task_id: 't1' });
    expect(bridge.shown).toEqual([{ title: 'Echo finished', body: '{}', task_id: 't1' }]);
    await expect(sent).resolves.toBeUndefined();
  });

  it('reject, never throw, whatever the bridge does wrong (so one .catch covers it)', async () => {
    global.agentHost = { showNotification: () => Promise.reject(new Error('notifications are off')) };
    await expect(desktopNotifier()!({ title: 'x', body: '' })).rejects.toThrow('notifications are off');
    global.agentHost = {
      showNotification: () => {
        throw new Error('invalid notification');
      },
    };
    const thrown = desktopNotifier()!({ title: 'x', body: '' });
    await expect(thrown).rejects.toThrow('invalid notification');
  });
});

describe('control events', () => {
  it('parses `changed: intake` (and still drops unknown parts)', () => {
    expect(parseControlEvent('changed', '{"type":"changed","what":"intake"}')).toEqual({ type: 'changed', what: 'intake' });
    expect(parseControlEvent('changed', '{"type":"changed","what":"weather"}')).toBeUndefined();
  });
});
