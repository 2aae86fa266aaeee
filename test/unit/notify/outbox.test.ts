import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { DeliveryStore } from '../../../build/main/core/notify/delivery-store.js';
import { createOutboxHook, notificationTargets } from '../../../build/main/core/notify/outbox.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import type { NotificationConfig, Task } from '../../../build/main/shared/protocol.js';
import { makeTempDir } from '../../support/temp-dir.js';

const AGENT_HOOK: NotificationConfig = { endpoint_url: 'https://agent.example/hook', auth_header: 'Authorization: Bearer a', signing_secret: 'whsec_QUFBQQ==' };
const TASK_HOOK: NotificationConfig = { endpoint_url: 'https://task.example/hook', auth_header: 'X-Token: t' };

describe('notification targets', () => {
  it('lists the agent\'s webhook, then the task\'s', () => {
    expect(notificationTargets(AGENT_HOOK, TASK_HOOK)).toEqual([AGENT_HOOK, TASK_HOOK]);
    expect(notificationTargets(undefined, TASK_HOOK)).toEqual([TASK_HOOK]);
    expect(notificationTargets(AGENT_HOOK, undefined)).toEqual([AGENT_HOOK]);
    expect(notificationTargets(undefined, undefined)).toEqual([]);
  });

  it('makes one target of one URL named twice, keeping the agent\'s credentials', () => {
    expect(notificationTargets(AGENT_HOOK, { endpoint_url: 'https://agent.example/hook' })).toEqual([AGENT_HOOK]);
    expect(notificationTargets(AGENT_HOOK, { endpoint_url: 'HTTPS://Agent.Example:443/hook' })).toEqual([AGENT_HOOK]);
  });
});

describe('the outbox hook', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Db;
  let store: TaskStore;
  let deliveries: DeliveryStore;
  let agentConfig: NotificationConfig | undefined;

  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(`${tmp.dir}/agent-host.db`);
    store = new TaskStore(db);
    deliveries = new DeliveryStore(db);
    agentConfig = AGENT_HOOK;
    // The agent is looked up at each change, so a changed setting applies from then on.
    const agents = { get: (slug: string) => (slug === 'echo' ? ({ slug, notificationConfig: agentConfig } as LoadedAgent) : undefined) };
    store.addStatusHook(createOutboxHook(db, agents));
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  const create = (notificationConfig?: NotificationConfig): string => {
    const result = store.createTask({ agentSlug: 'echo', agentId: 'agent-1', input: { message: 'x' }, ...(notificationConfig ? { notificationConfig } : {}) });
    return result.task.task_id;
  };

  it('writes one pending delivery per target for every status change, with the protocol body', () => {
    const id = create(TASK_HOOK);
    store.transition(id, 'WORKING');
    store.transition(id, 'COMPLETED', { output: { ok: true } });
    const rows = deliveries.listForTask(id);
    expect(rows.map((d) => [d.task_status, d.endpoint_url])).toEqual([
      ['SUBMITTED', AGENT_HOOK.endpoint_url],
      ['SUBMITTED', TASK_HOOK.endpoint_url],
      ['WORKING', AGENT_HOOK.endpoint_url],
      ['WORKING', TASK_HOOK.endpoint_url],
      ['COMPLETED', AGENT_HOOK.endpoint_url],
      ['COMPLETED', TASK_HOOK.endpoint_url],
    ]);
    const statusEvents = store.listEvents(id).filter((e) => e.kind === 'status');
    expect(rows.map((d) => d.status_event_id)).toEqual(statusEvents.flatMap((e) => [e.id, e.id]));
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'pending', attempts: 0, next_attempt_at: row.created_at, last_error: null });
      expect(row.webhook_id).toMatch(/^msg_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const event = statusEvents.find((e) => e.id === row.status_event_id)!;
      const task = event.data as Task;
      expect(deliveries.get(row.id)!.payload).toEqual({ event_type: 'task.status.updated', timestamp: task.updated_at, data: task });
    }
    expect(new Set(rows.map((d) => d.webhook_id)).size).toBe(rows.length);
    expect(rows.map((d) => d.signed)).toEqual([true, false, true, false, true, false]);
  });

  it('follows a change of the agent\'s webhook from the next status change on', () => {
    const id = create();
    agentConfig = undefined;
    store.transition(id, 'WORKING');
    expect(deliveries.listForTask(id).map((d) => d.task_status)).toEqual(['SUBMITTED']);
  });

  it('writes nothing for a task nobody listens to', () => {
    agentConfig = undefined;
    const id = create();
    store.transition(id, 'CANCELLED');
    expect(deliveries.listForTask(id)).toEqual([]);
  });

  it('commits with the status change or not at all', () => {
    const id = create(TASK_HOOK);
    store.transition(id, 'WORKING');
    store.addStatusHook((record) => {
      if (record.task.status === 'COMPLETED') throw new Error('later hook failed');
    });
    expect(() => store.transition(id, 'COMPLETED', { output: {} })).toThrow('later hook failed');
    expect(store.getRecord(id)!.task.status).toBe('WORKING');
    expect(deliveries.listForTask(id).map((d) => d.task_status)).toEqual(['SUBMITTED', 'SUBMITTED', 'WORKING', 'WORKING']);
    store.transition(id, 'FAILED', { error: { code: 'X', message: 'y' } });
    expect(deliveries.listForTask(id).map((d) => d.task_status).slice(4)).toEqual(['FAILED', 'FAILED']);
  });
});
