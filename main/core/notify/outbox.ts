import { randomUUID } from 'node:crypto';
import type { NotificationConfig, Task } from '../../shared/protocol.js';
import type { AgentDirectory } from '../agents/loaded-agent.js';
import { nowIso } from '../clock.js';
import type { Db } from '../store/database.js';
import type { StatusChangeHook, TaskRecord } from '../store/task-store.js';
import type { WebhookPayload } from './delivery-types.js';

/** The protocol's notification body for the task as it is right after the change. */
export function webhookPayload(task: Task): WebhookPayload {
  return { event_type: 'task.status.updated', timestamp: task.updated_at, data: task };
}

function sameEndpointKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Where a task's change goes: the agent's webhook, then the task's own. One URL configured in both
 * gets one delivery, with the agent's credentials: the operator set those up for that receiver.
 */
export function notificationTargets(
  agentConfig: NotificationConfig | undefined,
  taskConfig: NotificationConfig | undefined,
): NotificationConfig[] {
  const targets: NotificationConfig[] = [];
  const seen = new Set<string>();
  for (const config of [agentConfig, taskConfig]) {
    if (!config) continue;
    const key = sameEndpointKey(config.endpoint_url);
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(config);
  }
  return targets;
}

/**
 * The outbox writer, a TaskStore status hook: it runs inside the transaction of every status
 * change (creation included), so a change and its deliveries commit together or not at all. The
 * agent is looked up at that moment, so a webhook edited in the settings applies to later changes.
 */
export function createOutboxHook(db: Db, agents: Pick<AgentDirectory, 'get'>): StatusChangeHook {
  const statusEventId = db.prepare<[string], { id: number }>(
    `SELECT id FROM task_events WHERE task_id = ? AND kind = 'status' ORDER BY id DESC LIMIT 1`,
  );
  const insert = db.prepare<{
    task_id: string;
    status_event_id: number;
    endpoint_url: string;
    auth_header: string | null;
    signing_secret: string | null;
    webhook_id: string;
    payload: string;
    now: string;
  }>(
    `INSERT INTO deliveries (task_id, status_event_id, endpoint_url, auth_header, signing_secret,
       webhook_id, payload, state, attempts, next_attempt_at, created_at)
     VALUES (@task_id, @status_event_id, @endpoint_url, @auth_header, @signing_secret,
       @webhook_id, @payload, 'pending', 0, @now, @now)`,
  );

  return (record: TaskRecord): void => {
    const targets = notificationTargets(agents.get(record.agentSlug)?.notificationConfig, record.notificationConfig);
    if (targets.length === 0) return;
    // The store appends the status event just before running the hooks, in this same transaction.
    const eventId = statusEventId.get(record.task.task_id)?.id;
    if (eventId === undefined) throw new Error(`no status event for task ${record.task.task_id}`);
    const payload = JSON.stringify(webhookPayload(record.task));
    const now = nowIso();
    for (const target of targets) {
      insert.run({
        task_id: record.task.task_id,
        status_event_id: eventId,
        endpoint_url: target.endpoint_url,
        auth_header: target.auth_header ?? null,
        signing_secret: target.signing_secret ?? null,
        webhook_id: `msg_${randomUUID()}`,
        payload,
        now,
      });
    }
  };
}
