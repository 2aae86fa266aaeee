import { describe, expect, it } from 'vitest';
import type { TaskDetail } from '../../../main/shared/control-api.js';
import type { Task, TaskEvent, TaskStatus } from '../../../main/shared/protocol.js';
import { buildTimeline } from '../../../renderer/src/lib/timeline.js';

const base: Task = { task_id: 't', agent_id: 'a', status: 'SUBMITTED', input: {}, created_at: '2025-01-01T10:00:00.000Z', updated_at: '2025-01-01T10:00:00.000Z' };
const at = (s: number): string => new Date(Date.parse(base.created_at) + s * 1000).toISOString();
const status = (id: number, s: TaskStatus, sec: number, extra: Partial<Task> = {}): TaskEvent => ({
  id,
  task_id: 't',
  kind: 'status',
  data: { ...base, status: s, updated_at: at(sec), ...extra },
});

function detail(events: TaskEvent[], moreBefore = false): Pick<TaskDetail, 'task' | 'events' | 'artifacts' | 'more_events_before'> {
  return {
    task: base,
    events,
    more_events_before: moreBefore,
    artifacts: [{ artifact_id: 'x', task_id: 't', type: 'file', content: 'http://h/c', metadata: { created_at: at(3), filename: 'out.py' } }],
  };
}

describe('task timeline', () => {
  it('lists statuses with how long each lasted, answers and artifacts, and skips log lines', () => {
    const entries = buildTimeline(
      detail([
        status(1, 'SUBMITTED', 0),
        status(2, 'WORKING', 1.5),
        { id: 3, task_id: 't', kind: 'log', data: { timestamp: at(2), level: 'INFO', message: 'hi' } },
        { id: 4, task_id: 't', kind: 'artifact', data: { artifact_id: 'x' } },
        status(5, 'INPUT_REQUIRED', 4, { prompt: 'Name?' }),
        { id: 6, task_id: 't', kind: 'prompt', data: { timestamp: at(4), prompt: 'Name?' } },
        { id: 7, task_id: 't', kind: 'answer', data: { timestamp: at(10), input: { text: 'Ada' } } },
        status(8, 'WORKING', 10),
        status(9, 'FAILED', 12, { error: { code: 'TIMEOUT', message: 'too slow' } }),
      ]),
    );
    expect(entries.map((e) => (e.kind === 'status' ? `${e.status}:${e.durationMs ?? '-'}:${e.note ?? ''}` : e.kind === 'artifact' ? `artifact:${e.title}` : `answer:${JSON.stringify(e.input)}`))).toEqual([
      'SUBMITTED:1500:',
      'WORKING:2500:',
      'artifact:out.py',
      'INPUT_REQUIRED:6000:Name?',
      'answer:{"text":"Ada"}',
      'WORKING:2000:',
      'FAILED:-:TIMEOUT: too slow',
    ]);
  });

  it('stands in the creation time when the SUBMITTED event is older than the events loaded', () => {
    const entries = buildTimeline(detail([status(40, 'WORKING', 5)], true));
    expect(entries[0]).toMatchObject({ kind: 'status', status: 'SUBMITTED', at: base.created_at, durationMs: 5000 });
  });
});
