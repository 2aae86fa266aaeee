/**
 * What the person is told about a task they started from "Try it" (lib/task-notice.ts), and
 * whether the page counts as in front (lib/page-focus.ts). The store's use of both, with the
 * bridge and the toasts, is in store.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isDesktopNotification, NOTIFICATION_BODY_MAX } from '../../../main/shared/desktop-bridge.js';
import type { Task, TaskStatus } from '../../../main/shared/protocol.js';
import { pageInFront } from '../../../renderer/src/lib/page-focus.js';
import { clipText, oneLine, taskNotice, TOAST_PREVIEW_MAX } from '../../../renderer/src/lib/task-notice.js';

const task = (status: TaskStatus, extra: Partial<Task> = {}): Task => ({
  task_id: 'task-1',
  agent_id: 'a',
  status,
  input: {},
  created_at: '2025-01-01T10:00:00.000Z',
  updated_at: '2025-01-01T10:00:01.000Z',
  ...extra,
});

describe('taskNotice', () => {
  it('is there for the three ends and a question, not for a task still on its way', () => {
    expect(taskNotice(task('SUBMITTED'), 'Echo')).toBeUndefined();
    expect(taskNotice(task('WORKING'), 'Echo')).toBeUndefined();
    expect(taskNotice(task('COMPLETED', { output: { a: 1 } }), 'Echo')).toEqual({
      notification: { title: 'Echo finished', body: '{"a":1}', task_id: 'task-1' },
      toast: { kind: 'success', message: 'Echo finished: {"a":1}', link: { href: '#/tasks/task-1', text: 'Open it' } },
    });
    expect(taskNotice(task('FAILED', { error: { code: 'E', message: 'disk\nfull' } }), 'Echo')?.notification).toEqual({ title: 'Echo failed', body: 'disk full', task_id: 'task-1' });
    expect(taskNotice(task('CANCELLED'), 'Echo')?.toast).toEqual({ kind: 'info', message: 'Echo was cancelled.', link: { href: '#/tasks/task-1', text: 'Open it' } });
    expect(taskNotice(task('INPUT_REQUIRED', { prompt: 'Ship it?' }), 'Echo')?.toast.link).toEqual({ href: '#/inbox/task-1', text: 'Answer it' });
  });

  it('never gives a title the contract refuses, and clips the toast shorter than the notification', () => {
    const notice = taskNotice(task('INPUT_REQUIRED', { prompt: 'why? '.repeat(200) }), '  \n ')!;
    expect(notice.notification.title).toBe('Agent asks for input');
    expect(isDesktopNotification(notice.notification)).toBe(true);
    expect(notice.notification.body.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
    expect(notice.toast.message).toBe(`Agent asks for input: ${clipText('why? '.repeat(200).trim(), TOAST_PREVIEW_MAX)}`);
  });
});

describe('clipText and oneLine', () => {
  it('leaves short text alone and cuts long text to exactly the limit, with "…"', () => {
    expect(clipText('abc', 3)).toBe('abc');
    expect(clipText('abcd', 3)).toBe('ab…');
    expect(clipText('x'.repeat(600), 500)).toHaveLength(500);
  });

  it('does not split a surrogate pair', () => {
    const clipped = clipText(`ab${'😀'.repeat(10)}`, 6); // "ab" + 😀 (2 units) + half of the next
    expect(clipped).toBe('ab😀…');
  });

  it('makes one line of any whitespace', () => {
    expect(oneLine('  a\n\n b\tc \r\n')).toBe('a b c');
  });
});

describe('pageInFront', () => {
  const page = globalThis as { document?: unknown };
  afterEach(() => {
    delete page.document;
  });

  it('is in front when shown and focused, not when hidden or another window has the focus', () => {
    expect(pageInFront()).toBe(true); // no document (Node): never notifies by accident
    page.document = { hidden: false, hasFocus: () => true };
    expect(pageInFront()).toBe(true);
    page.document = { hidden: false, hasFocus: () => false };
    expect(pageInFront()).toBe(false);
    page.document = { hidden: true, hasFocus: () => true };
    expect(pageInFront()).toBe(false);
  });
});
