import type { ControlEvent } from '../shared/control-api.js';

/** What changed: the part of the UI's state that must be fetched again. */
export type ChangedPart = Extract<ControlEvent, { type: 'changed' }>['what'];
export type ChangeListener = (what: ChangedPart) => void;

/**
 * In-process notice that agents, settings, tokens, webhook deliveries or intake changed, for changes that
 * leave no task event behind (the control API's live stream turns them into `changed` events).
 * Whoever changes one of these parts calls `emit`; listeners must not throw.
 */
export class HostChanges {
  private readonly listeners = new Set<ChangeListener>();

  on(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(what: ChangedPart): void {
    for (const listener of this.listeners) listener(what);
  }
}
