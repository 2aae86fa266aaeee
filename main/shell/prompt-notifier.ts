import type { PromptChange, PromptFeed, WaitingPrompt } from '../core/tasks/prompt-feed.js';
import type { ShellElectron, ShellNotification } from './electron-api.js';

export interface PromptNotifierOptions {
  feed: Pick<PromptFeed, 'on'>;
  /** The window is in front showing the Inbox: new prompts appear there, no notification needed. */
  promptsInView: () => boolean;
  onOpenPrompt: (taskId: string) => void;
  onOpenInbox: () => void;
  iconPath?: string;
  platform: NodeJS.Platform;
  /** Prompts entering within this many ms are announced together (default 400). */
  burstMs?: number;
}

const BODY_MAX = 180;

/**
 * A native notification when a task needs input; clicking it opens that prompt. A burst of new
 * prompts (an orchestrator fanning out) gives one summary notification, not dozens; a prompt
 * answered or cancelled meanwhile takes its notification away.
 */
export class PromptNotifier {
  private readonly shown = new Map<string, ShellNotification>();
  private queued: WaitingPrompt[] = [];
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly electron: Pick<ShellElectron, 'Notification'>,
    private readonly options: PromptNotifierOptions,
  ) {}

  start(): void {
    if (!this.electron.Notification.isSupported()) return;
    this.unsubscribe = this.options.feed.on((change) => this.onChange(change));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queued = [];
    for (const notification of this.shown.values()) notification.close();
    this.shown.clear();
  }

  private onChange(change: PromptChange): void {
    if (change.kind === 'left') {
      this.queued = this.queued.filter((prompt) => prompt.task_id !== change.task_id);
      this.shown.get(change.task_id)?.close();
      this.shown.delete(change.task_id);
      return;
    }
    this.queued.push(change.prompt);
    this.timer ??= setTimeout(() => this.flush(), this.options.burstMs ?? 400);
  }

  private flush(): void {
    this.timer = undefined;
    const prompts = this.queued;
    this.queued = [];
    if (prompts.length === 0 || this.options.promptsInView()) return;
    const [first] = prompts;
    if (prompts.length === 1 && first) {
      this.present(first.task_id, {
        title: `${first.agent_display_name} needs your input`,
        body: clip(first.prompt.replace(/\s+/g, ' ').trim() || 'A task is waiting for your answer.'),
      }, () => this.options.onOpenPrompt(first.task_id));
      return;
    }
    const agents = [...new Set(prompts.map((prompt) => prompt.agent_display_name))];
    this.present('*summary*', {
      title: `${prompts.length} tasks need your input`,
      body: clip(`From ${agents.slice(0, 3).join(', ')}${agents.length > 3 ? ` and ${agents.length - 3} more` : ''}. Open the Inbox to answer.`),
    }, () => this.options.onOpenInbox());
  }

  /** A notification the page asked for (a task it started finished); `onClick` when it is clicked. */
  showFromPage(key: string, content: { title: string; body: string }, onClick: () => void): void {
    if (!this.electron.Notification.isSupported()) return;
    this.present(`page:${key}`, content, onClick);
  }

  private present(key: string, content: { title: string; body: string }, onClick: () => void): void {
    this.shown.get(key)?.close();
    const notification = new this.electron.Notification({
      title: content.title,
      body: notificationText(content.body, this.options.platform),
      ...(this.options.iconPath ? { icon: this.options.iconPath } : {}),
    });
    // Held in the map until closed or clicked: a notification that is garbage-collected loses its click handler.
    this.shown.set(key, notification);
    notification.on('click', () => {
      this.shown.delete(key);
      onClick();
    });
    notification.on('close', () => {
      if (this.shown.get(key) === notification) this.shown.delete(key);
    });
    notification.show();
  }
}

/**
 * The body is an agent's text. Linux notification servers read a subset of HTML in it, so there
 * it is escaped to show as written; macOS and Windows show plain text as is.
 */
export function notificationText(text: string, platform: NodeJS.Platform): string {
  if (platform !== 'linux') return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string): string {
  return text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1).trimEnd()}…` : text;
}
