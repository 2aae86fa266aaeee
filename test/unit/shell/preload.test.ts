/**
 * The shipped preload bundle (build/preload/preload.cjs), run as Electron runs a sandboxed preload:
 * CommonJS with a `require` that only knows Electron's renderer modules. Electron itself is a
 * stand-in here (its binary cannot be installed on this machine): contextBridge records what is
 * exposed, ipcRenderer records what is sent.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DesktopChannel, type AgentHostBridge } from '../../../build/main/shared/desktop-bridge.js';

const BUNDLE = new URL('../../../build/preload/preload.cjs', import.meta.url);
const ID = '3f1c2a9e-5b7d-4c1e-9f0a-1b2c3d4e5f60';

function loadPreload() {
  const exposed: Record<string, unknown> = {};
  const required: string[] = [];
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipcRenderer = {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push({ channel, args });
      return { channel };
    },
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => listeners.get(channel)?.delete(listener),
    send: () => {
      throw new Error('the bridge must not use send');
    },
  };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
    return { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) }, ipcRenderer };
  };
  const module = { exports: {} };
  runInNewContext(readFileSync(BUNDLE, 'utf8'), { require: sandboxRequire, module, exports: module.exports, Promise, TypeError });
  const emit = (channel: string, ...args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'ipc-event' }, ...args);
  };
  return { bridge: exposed['agentHost'] as AgentHostBridge, exposed, required, invoked, emit, listeners };
}

describe('preload bundle', () => {
  it('is one self-contained file that needs only electron, and exposes exactly the facade', () => {
    const { exposed, required, bridge } = loadPreload();
    expect(required).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['agentHost']);
    expect(Object.keys(bridge).sort()).toEqual(['getInfo', 'getLoginItem', 'onOpenPrompt', 'openArtifact', 'revealArtifact', 'setLoginItem', 'showNotification']);
  });

  it('sends valid calls on their channels', async () => {
    const { bridge, invoked } = loadPreload();
    await bridge.revealArtifact(ID);
    await bridge.openArtifact(ID);
    await bridge.getInfo();
    await bridge.getLoginItem();
    await bridge.setLoginItem(true);
    await bridge.showNotification({ title: 'Echo finished', body: 'ok', task_id: ID });
    expect(invoked).toEqual([
      { channel: DesktopChannel.revealArtifact, args: [ID] },
      { channel: DesktopChannel.openArtifact, args: [ID] },
      { channel: DesktopChannel.getInfo, args: [] },
      { channel: DesktopChannel.getLoginItem, args: [] },
      { channel: DesktopChannel.setLoginItem, args: [true] },
      { channel: DesktopChannel.showNotification, args: [{ title: 'Echo finished', body: 'ok', task_id: ID }] },
    ]);
  });

  it('refuses bad arguments before anything is sent', async () => {
    const { bridge, invoked } = loadPreload();
    await expect(bridge.revealArtifact('../../etc/passwd')).rejects.toThrow(/artifact id/);
    await expect(bridge.openArtifact(42 as unknown as string)).rejects.toThrow(/artifact id/);
    await expect(bridge.setLoginItem('yes' as unknown as boolean)).rejects.toThrow(/true or false/);
    await expect(bridge.showNotification({ title: '', body: 'x' })).rejects.toThrow(/title, body/);
    await expect(bridge.showNotification({ title: 't', body: 'x'.repeat(501) })).rejects.toThrow(/title, body/);
    await expect(bridge.showNotification({ title: 't', body: '', task_id: '../x' })).rejects.toThrow(/title, body/);
    expect(() => bridge.onOpenPrompt('x' as unknown as () => void)).toThrow(/function/);
    expect(invoked).toEqual([]);
  });

  it('relays "open prompt" with the task id only (never the IPC event), and unsubscribes', () => {
    const { bridge, emit, listeners } = loadPreload();
    const received: unknown[][] = [];
    const stop = bridge.onOpenPrompt((...args: unknown[]) => received.push(args));
    emit(DesktopChannel.openPrompt, ID);
    emit(DesktopChannel.openPrompt, '../x');
    emit(DesktopChannel.openPrompt, { id: ID });
    expect(received).toEqual([[ID]]);
    stop();
    expect(listeners.get(DesktopChannel.openPrompt)?.size).toBe(0);
    emit(DesktopChannel.openPrompt, ID);
    expect(received).toHaveLength(1);
  });
});
