/**
 * What to tell the person when a task they started from "Try it" ends or asks something: a title
 * and a one-line preview for a native notification, kept within the desktop contract's limits
 * (main/shared/desktop-bridge.ts: the shell rejects anything longer), and the toast that says the
 * same inside the page. Pure: no DOM, no store.
 */
import { NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX, type DesktopNotification } from '../../../main/shared/desktop-bridge.js';
import type { Task, TaskStatus } from '../../../main/shared/protocol.js';
import { promptHref, taskHref } from './route.js';

/** The states worth interrupting someone for: the three terminal ones, and a question. */
export type NoticeStatus = 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'INPUT_REQUIRED';

const VERB: Readonly<Record<NoticeStatus, string>> = {
  COMPLETED: 'finished',
  FAILED: 'failed',
  CANCELLED: 'was cancelled',
  INPUT_REQUIRED: 'asks for input',
};

/** Toasts are read at a glance: their preview is much shorter than a notification's body. */
export const TOAST_PREVIEW_MAX = 120;

export function isNoticeStatus(status: TaskStatus): status is NoticeStatus {
  return Object.hasOwn(VERB, status);
}

export interface TaskNotice {
  notification: DesktopNotification;
  toast: { kind: 'success' | 'error' | 'info'; message: string; link: { href: string; text: string } };
}

/** The notice for a task in `task.status`, or undefined for a state nobody is told about. */
export function taskNotice(task: Task, agentName: string): TaskNotice | undefined {
  const status = task.status;
  if (!isNoticeStatus(status)) return undefined;
  // The title may not be blank (the contract refuses it): a name of only spaces says "Agent".
  const title = clipText(`${oneLine(agentName) || 'Agent'} ${VERB[status]}`, NOTIFICATION_TITLE_MAX);
  const preview = oneLine(previewOf(task, status));
  const body = clipText(preview, NOTIFICATION_BODY_MAX);
  const message = preview ? `${title}: ${clipText(preview, TOAST_PREVIEW_MAX)}` : `${title}.`;
  // A question is answered in the inbox; anything else is looked at in the task's detail.
  const link = status === 'INPUT_REQUIRED' ? { href: promptHref(task.task_id), text: 'Answer it' } : { href: taskHref(task.task_id), text: 'Open it' };
  const kind = status === 'COMPLETED' ? 'success' : status === 'FAILED' ? 'error' : 'info';
  return { notification: { title, body, task_id: task.task_id }, toast: { kind, message, link } };
}

function previewOf(task: Task, status: NoticeStatus): string {
  switch (status) {
    case 'COMPLETED':
      return task.output === undefined ? '' : JSON.stringify(task.output);
    case 'FAILED':
    case 'CANCELLED':
      return task.error?.message ?? '';
    case 'INPUT_REQUIRED':
      return task.prompt ?? '';
  }
}

/** Runs of whitespace (newlines included) as one space: a notification shows one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * At most `max` UTF-16 units (what `.length` and the contract count), ending with "…" when cut.
 * Never splits a surrogate pair: half an emoji would show as a replacement box.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
