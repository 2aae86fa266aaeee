import { afterEach, describe, expect, it } from 'vitest';
import type { PromptChange, WaitingPrompt } from '../../../build/main/core/tasks/prompt-feed.js';
import { notificationText, PromptNotifier } from '../../../build/main/shell/prompt-notifier.js';
import { FakeNotification, fakeElectron } from '../../support/fake-electron.js';

function feed() {
  const listeners = new Set<(change: PromptChange) => void>();
  return {
    on: (listener: (change: PromptChange) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (change: PromptChange) => listeners.forEach((listener) => listener(change)),
    size: () => listeners.size,
  };
}
const prompt = (n: number, agent = 'Echo'): WaitingPrompt => ({
  task_id: `t${n}`,
  agent_slug: agent.toLowerCase(),
  agent_display_name: agent,
  prompt: `Question ${n}?`,
  since: '2026-12-02T10:00:00.000Z',
});
const settle = (ms = 60) => new Promise((resolve) => setTimeout(resolve, ms));

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function start(focused = false, platform: NodeJS.Platform = 'darwin') {
  const { electron } = fakeElectron();
  const source = feed();
  const opened: string[] = [];
  const notifier = new PromptNotifier(electron, {
    feed: source,
    promptsInView: () => focused,
    onOpenPrompt: (id) => opened.push(id),
    onOpenInbox: () => opened.push('inbox'),
    platform,
    burstMs: 20,
  });
  notifier.start();
  stop = () => notifier.stop();
  return { source, opened, notifier };
}

describe('prompt notifications', () => {
  it('one prompt: its agent and text; a click opens it', async () => {
    const { source, opened } = start();
    source.emit({ kind: 'entered', prompt: prompt(1) });
    await settle();
    expect(FakeNotification.instances.map((n) => n.options)).toEqual([{ title: 'Echo needs your input', body: 'Question 1?' }]);
    FakeNotification.instances[0]!.emit('click');
    expect(opened).toEqual(['t1']);
  });

  it('a burst gives one summary that opens the Inbox', async () => {
    const { source, opened } = start();
    for (let n = 0; n < 30; n += 1) source.emit({ kind: 'entered', prompt: prompt(n, ['Echo', 'Build', 'Deploy', 'Lint', 'Docs'][n % 5]) });
    await settle();
    expect(FakeNotification.instances).toHaveLength(1);
    expect(FakeNotification.instances[0]!.options).toEqual({ title: '30 tasks need your input', body: 'From Echo, Build, Deploy and 2 more. Open the Inbox to answer.' });
    FakeNotification.instances[0]!.emit('click');
    expect(opened).toEqual(['inbox']);
  });

  it('a prompt answered before or after it was announced takes its notification away', async () => {
    const { source } = start();
    source.emit({ kind: 'entered', prompt: prompt(1) });
    source.emit({ kind: 'left', task_id: 't1' });
    await settle();
    expect(FakeNotification.instances).toHaveLength(0);
    source.emit({ kind: 'entered', prompt: prompt(2) });
    await settle();
    source.emit({ kind: 'left', task_id: 't2' });
    expect(FakeNotification.instances[0]!.closed).toBe(true);
  });

  it('nothing while the Inbox is in front; stop() unsubscribes and closes what is shown', async () => {
    const quiet = start(true);
    quiet.source.emit({ kind: 'entered', prompt: prompt(1) });
    await settle();
    expect(FakeNotification.instances).toHaveLength(0);
    quiet.notifier.stop();
    expect(quiet.source.size()).toBe(0);
  });

  it('escapes markup only where notification servers read it (Linux)', () => {
    expect(notificationText('<b>a</b> & b', 'linux')).toBe('&lt;b&gt;a&lt;/b&gt; &amp; b');
    expect(notificationText('<b>a</b> & b', 'darwin')).toBe('<b>a</b> & b');
  });
});
