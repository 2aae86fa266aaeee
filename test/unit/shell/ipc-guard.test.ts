import { describe, expect, it } from 'vitest';
import { DESKTOP_INVOKE_CHANNELS, DesktopChannel } from '../../../build/main/shared/desktop-bridge.js';
import { checkSender, IpcRefusedError, parseInvoke } from '../../../build/main/shell/ipc-guard.js';

const APP = 'http://127.0.0.1:7411';
const sender = (id: number, url: string, parent: unknown = null) => ({ sender: { id }, senderFrame: { url, parent } });
const ID = '3f1c2a9e-5b7d-4c1e-9f0a-1b2c3d4e5f60';

describe('IPC sender check', () => {
  it('accepts only the window\'s top frame showing our page', () => {
    expect(() => checkSender(sender(7, `${APP}/#/inbox`), 7, APP)).not.toThrow();
    expect(() => checkSender(sender(8, `${APP}/`), 7, APP)).toThrow(IpcRefusedError);
    expect(() => checkSender(sender(7, `${APP}/`), undefined, APP)).toThrow(/not the Agent Host window/);
    expect(() => checkSender(sender(7, `${APP}/`, {}), 7, APP)).toThrow(/top frame/);
    expect(() => checkSender({ sender: { id: 7 }, senderFrame: null }, 7, APP)).toThrow(/top frame/);
    expect(() => checkSender(sender(7, 'https://evil.example/'), 7, APP)).toThrow(/not Agent Host's own/);
    expect(() => checkSender(sender(7, 'http://127.0.0.1:7412/'), 7, APP)).toThrow(/not Agent Host's own/);
  });
});

describe('IPC arguments', () => {
  it('parses each channel\'s exact arguments', () => {
    expect(parseInvoke(DesktopChannel.revealArtifact, [ID])).toEqual({ channel: DesktopChannel.revealArtifact, artifactId: ID });
    expect(parseInvoke(DesktopChannel.openArtifact, [ID])).toEqual({ channel: DesktopChannel.openArtifact, artifactId: ID });
    expect(parseInvoke(DesktopChannel.getInfo, [])).toEqual({ channel: DesktopChannel.getInfo });
    expect(parseInvoke(DesktopChannel.getLoginItem, [])).toEqual({ channel: DesktopChannel.getLoginItem });
    expect(parseInvoke(DesktopChannel.setLoginItem, [true])).toEqual({ channel: DesktopChannel.setLoginItem, enabled: true });
    expect(parseInvoke(DesktopChannel.showNotification, [{ title: 'Echo finished', body: '', task_id: ID }])).toEqual({
      channel: DesktopChannel.showNotification,
      notification: { title: 'Echo finished', body: '', task_id: ID },
    });
    expect(parseInvoke(DesktopChannel.showNotification, [{ title: 't'.repeat(120), body: 'b'.repeat(500) }])).toEqual({
      channel: DesktopChannel.showNotification,
      notification: { title: 't'.repeat(120), body: 'b'.repeat(500) },
    });
  });

  it('refuses paths, wrong types and wrong counts', () => {
    const bad: [string, unknown[]][] = [
      [DesktopChannel.revealArtifact, ['../../etc/passwd']],
      [DesktopChannel.revealArtifact, ['/etc/passwd']],
      [DesktopChannel.revealArtifact, ['C:\\Windows\\system32']],
      [DesktopChannel.openArtifact, [42]],
      [DesktopChannel.openArtifact, [{ toString: () => ID }]],
      [DesktopChannel.openArtifact, ['']],
      [DesktopChannel.openArtifact, ['a'.repeat(129)]],
      [DesktopChannel.openArtifact, [ID, 'extra']],
      [DesktopChannel.openArtifact, []],
      [DesktopChannel.setLoginItem, ['true']],
      [DesktopChannel.setLoginItem, [1]],
      [DesktopChannel.getInfo, [1]],
      [DesktopChannel.showNotification, [{ title: '   ', body: '' }]],
      [DesktopChannel.showNotification, [{ title: 't'.repeat(121), body: '' }]],
      [DesktopChannel.showNotification, [{ title: 't', body: 'b'.repeat(501) }]],
      [DesktopChannel.showNotification, [{ title: 't', body: '', task_id: '../../x' }]],
      [DesktopChannel.showNotification, [{ title: 't', body: '', icon: '/etc/passwd' }]],
      [DesktopChannel.showNotification, [{ title: 't' }]],
      [DesktopChannel.showNotification, ['Echo finished']],
      [DesktopChannel.showNotification, [['t', 'b']]],
      [DesktopChannel.openPrompt, [ID]],
      ['agent-host:shell:exec', ['rm -rf /']],
    ];
    for (const [channel, args] of bad) expect(() => parseInvoke(channel, args), `${channel} ${JSON.stringify(args)}`).toThrow(IpcRefusedError);
  });

  it('every invoke channel parses, and the page-bound channel is not invokable', () => {
    expect(DESKTOP_INVOKE_CHANNELS).not.toContain(DesktopChannel.openPrompt);
    expect(new Set(Object.values(DesktopChannel)).size).toBe(Object.values(DesktopChannel).length);
  });
});
