/**
 * A task's timeline from its event log: each status with its time and how long it lasted, the
 * answers given, the artifacts made. Pure, for the unit tests.
 */
import type { TaskDetail } from '../../../main/shared/control-api.js';
import type { JsonObject, Task, TaskEvent, TaskEventDataMap, TaskStatus } from '../../../main/shared/protocol.js';
import { artifactTitle } from './artifacts.js';

export type TimelineEntry =
  | { kind: 'status'; key: string; at: string; status: TaskStatus; note?: string; durationMs?: number }
  | { kind: 'answer'; key: string; at: string; input: JsonObject }
  | { kind: 'artifact'; key: string; at?: string; title: string; artifactId: string };

export function buildTimeline(detail: Pick<TaskDetail, 'task' | 'events' | 'artifacts' | 'more_events_before'>): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const statusEvents = detail.events.filter((e): e is TaskEvent<'status'> => e.kind === 'status');
  // The SUBMITTED event may be older than the events loaded: the task's creation time stands for it.
  if (statusEvents[0]?.data.status !== 'SUBMITTED') {
    entries.push({ kind: 'status', key: 'created', at: detail.task.created_at, status: 'SUBMITTED' });
  }
  for (const event of detail.events) {
    if (event.kind === 'status') {
      const task = event.data as Task;
      const entry: TimelineEntry = { kind: 'status', key: `e${event.id}`, at: task.updated_at, status: task.status };
      const note = noteFor(task);
      if (note) entry.note = note;
      entries.push(entry);
    } else if (event.kind === 'answer') {
      const data = event.data as TaskEventDataMap['answer'];
      entries.push({ kind: 'answer', key: `e${event.id}`, at: data.timestamp, input: data.input });
    } else if (event.kind === 'artifact') {
      const id = (event.data as TaskEventDataMap['artifact']).artifact_id;
      const artifact = detail.artifacts.find((a) => a.artifact_id === id);
      const entry: TimelineEntry = { kind: 'artifact', key: `e${event.id}`, title: artifact ? artifactTitle(artifact) : 'Artifact', artifactId: id };
      if (artifact) entry.at = artifact.metadata.created_at;
      entries.push(entry);
    }
  }
  // How long each status lasted: until the next status (the last, while open, is still running).
  const statuses = entries.filter((e): e is Extract<TimelineEntry, { kind: 'status' }> => e.kind === 'status');
  statuses.forEach((entry, i) => {
    const next = statuses[i + 1];
    if (next) {
      const ms = Date.parse(next.at) - Date.parse(entry.at);
      if (Number.isFinite(ms) && ms >= 0) entry.durationMs = ms;
    }
  });
  return entries;
}

function noteFor(task: Task): string | undefined {
  if (task.status === 'INPUT_REQUIRED' && task.prompt) return task.prompt;
  if (task.status === 'FAILED' && task.error) return `${task.error.code}: ${task.error.message}`;
  return undefined;
}
