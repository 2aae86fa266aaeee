import type { ControlEvent } from '../../../main/shared/control-api.js';
import type { Task, TaskEvent } from '../../../main/shared/protocol.js';
import type { TaskUpdate } from './task-reducers.js';
import type { Slice } from './types.js';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting';

export interface LiveSlice {
  connection: ConnectionState;
  /** Views may load: the event stream is open (or we stopped waiting for it). */
  dataReady: boolean;
  setConnection(state: ConnectionState): void;
  setDataReady(): void;
  /** Folds a batch of control events (in stream order) into every part of the store. */
  receive(events: readonly ControlEvent[]): void;
  /**
   * Refetches every part that was loaded. With `startedBefore`, only the parts whose last fetch
   * started before that time (they may have missed events the stream did not carry yet).
   */
  refreshAll(startedBefore?: number): void;
}

export const liveSlice: Slice<LiveSlice> = () => (set, get) => {
  // Tasks whose answer event came and whose status event (WORKING, in the same commit) has not yet.
  const answeredNow = new Set<string>();
  return {
    connection: 'connecting',
    dataReady: false,

    setConnection(connection) {
      if (get().connection !== connection) set({ connection });
    },

    setDataReady() {
      if (!get().dataReady) set({ dataReady: true });
    },

    receive(events) {
      const taskEvents: TaskEvent[] = [];
      const updates: TaskUpdate[] = [];
      const changed = new Set<string>();
      const artifactTasks = new Set<string>();
      let reset = false;
      for (const ev of events) {
        if (ev.type === 'reset') reset = true;
        else if (ev.type === 'changed') changed.add(ev.what);
        else if (ev.type === 'task') {
          taskEvents.push(ev.event);
          if (ev.event.kind === 'answer') answeredNow.add(ev.event.task_id);
          if (ev.event.kind === 'status') {
            const update: TaskUpdate = { task: ev.event.data as Task, agent_slug: ev.agent_slug, eventId: ev.event.id };
            if (answeredNow.delete(ev.event.task_id)) update.afterAnswer = true;
            updates.push(update);
          }
          if (ev.event.kind === 'artifact') artifactTasks.add(ev.event.task_id);
        }
      }
      const s = get();
      if (reset) {
        // Too far behind to replay: what we hold may be missing anything, so fetch it all again.
        s.refreshAll();
        return;
      }
      if (updates.length > 0) {
        s.applyTaskListUpdates(updates);
        s.applyInboxTaskUpdates(updates);
        s.refreshAgentsSoon();
        s.applyWatchedUpdates(updates);
      }
      if (taskEvents.length > 0) s.applyDetailEvents(taskEvents);
      if (artifactTasks.size > 0) {
        const open = s.detail.taskId;
        if (open && artifactTasks.has(open)) s.refreshDetailArtifacts(open);
        s.refreshNewArtifacts();
      }
      if (changed.has('agents') && s.agents.status !== 'idle') void s.loadAgents();
      if (changed.has('settings') && s.settings.status !== 'idle') void s.loadSettings();
      if (changed.has('tokens') && s.tokens.status !== 'idle') void s.loadTokens();
      if (changed.has('intake') && s.intake.status !== 'idle') void s.loadIntake();
      if (changed.has('deliveries')) s.refreshDetailDeliveries();
    },

    refreshAll(startedBefore) {
      const s = get();
      const due = (part: { status: string; requestedAt: number }): boolean =>
        part.status !== 'idle' && (startedBefore === undefined || part.requestedAt < startedBefore);
      if (due(s.inbox)) void s.loadInbox();
      if (due(s.tasks)) void s.loadTasks();
      if (s.detail.taskId && due(s.detail)) void s.reloadDetail();
      if (due(s.agents)) void s.loadAgents();
      if (due(s.artifacts)) void s.loadArtifacts();
      if (due(s.settings)) void s.loadSettings();
      if (due(s.tokens)) void s.loadTokens();
      if (due(s.intake)) void s.loadIntake();
      // Not "loaded parts" but tasks waiting to be told about: whatever ended in the gap is told now.
      s.refreshWatched();
    },
  };
};
