/**
 * GET /api/events, the UI's one live stream: committed task events of every task with their ids,
 * replay after a reconnect (Last-Event-ID) without gaps or repeats, `reset` for a client too far
 * behind, `changed` notices, pings, and dropping a client that does not read.
 */
import { request } from 'node:http';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlEvent } from '../../build/main/shared/control-api.js';
import type { Task, TaskEvent } from '../../build/main/shared/protocol.js';
import type { ControlClient } from '../support/control-client.js';
import { openRawStream, type RawFrame, type RawStream } from '../support/sse-clients.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

let t: TestHost;
let client: ControlClient;
let receiver: WebhookReceiver;
const streams: RawStream[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestHost({ config: { server: { sse_ping_ms: 300, sse_max_buffer_bytes: 64 * 1024 } } });
  client = await t.controlSession();
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.cleanup();
  await receiver.close();
});

async function openStream(lastEventId?: number): Promise<RawStream> {
  const headers: Record<string, string> = { cookie: client.cookie };
  if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
  const stream = await openRawStream(t.controlUrl, '/api/events', headers);
  streams.push(stream);
  return stream;
}

const lastEventId = (): number => (t.host.db.prepare('SELECT MAX(id) AS id FROM task_events').get() as { id: number | null }).id ?? 0;
const eventIdsAfter = (after: number): number[] =>
  (t.host.db.prepare('SELECT id FROM task_events WHERE id > ? ORDER BY id').all(after) as Array<{ id: number }>).map((row) => row.id);
const dataOf = (frame: RawFrame): ControlEvent => JSON.parse(frame.get('data') ?? 'null') as ControlEvent;
const taskFrames = (stream: RawStream): RawFrame[] => stream.frames.filter((frame) => frame.get('event') === 'task');

async function runEcho(input: Record<string, unknown>): Promise<string> {
  const res = await client.request<Task>('POST', '/api/agents/echo/tasks', { input });
  await t.waitForTask(res.body.task_id, (task) => ['COMPLETED', 'FAILED'].includes(task.status));
  return res.body.task_id;
}

describe('live', () => {
  it('streams every committed task event with its task_events id and agent, in order', async () => {
    const stream = await openStream();
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream');
    // The first frame sets the client's Last-Event-ID to "now", so a reconnect resumes from here.
    const baseline = await stream.waitForFrame((frame) => frame.get('id') !== undefined);
    expect(baseline.get('event')).toBeUndefined();
    expect(Number(baseline.get('id'))).toBe(lastEventId());

    const taskId = await runEcho({ message: 'live', log_lines: 3 });
    const stored = t.host.store.listEvents(taskId);
    await stream.waitForFrame((frame) => frame.get('id') === String(stored.at(-1)!.id));
    const mine = taskFrames(stream).filter((frame) => (dataOf(frame) as { event: TaskEvent }).event.task_id === taskId);
    expect(mine.map((frame) => Number(frame.get('id')))).toEqual(stored.map((event) => event.id));
    expect(mine.map(dataOf)).toEqual(stored.map((event) => ({ type: 'task', event, agent_slug: 'echo' })));
    expect(stored.filter((event) => event.kind === 'log')).toHaveLength(3);
  });

  it('works with a standard EventSource client carrying the session cookie', async () => {
    const source = new EventSource(`${t.controlUrl}/api/events`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, cookie: client.cookie } }),
    });
    try {
      const received: ControlEvent[] = [];
      source.addEventListener('task', (event: MessageEvent) => received.push(JSON.parse(String(event.data)) as ControlEvent));
      await new Promise<void>((resolve) => source.addEventListener('open', () => resolve()));
      const taskId = await runEcho({ message: 'eventsource' });
      await expect.poll(() => received.some((e) => e.type === 'task' && e.event.task_id === taskId && e.event.kind === 'status' && (e.event.data as Task).status === 'COMPLETED')).toBe(true);
    } finally {
      source.close();
    }
  });

  it('sends `changed` (without an id) when agents, tokens, settings or deliveries change', async () => {
    const stream = await openStream();
    await stream.waitForFrame((frame) => frame.get('id') !== undefined);
    await client.request('PATCH', '/api/agents/python-script', { concurrency: 3 });
    await client.request('POST', '/api/tokens', { name: 'live' });
    await client.request('PATCH', '/api/settings', { retention_days: 0 });
    await client.request('PATCH', '/api/agents/echo', { notification_config: { endpoint_url: receiver.url } });
    await runEcho({ message: 'notify' });
    for (const what of ['agents', 'tokens', 'settings', 'deliveries']) {
      const frame = await stream.waitForFrame((f) => f.get('event') === 'changed' && (dataOf(f) as { what: string }).what === what);
      expect(frame.get('id')).toBeUndefined();
      expect(dataOf(frame)).toEqual({ type: 'changed', what });
    }
    await client.request('PATCH', '/api/agents/echo', { notification_config: null });
  });

  it('pings an idle stream (no id, so Last-Event-ID stays put)', async () => {
    const stream = await openStream();
    const ping = await stream.waitForFrame((frame) => frame.get('event') === 'ping');
    expect(ping.get('id')).toBeUndefined();
    expect(JSON.parse(ping.get('data')!)).toEqual({ timestamp: expect.any(String) });
  });

  it('needs a session', async () => {
    const stream = await openRawStream(t.controlUrl, '/api/events');
    streams.push(stream);
    expect(stream.status).toBe(401);
  });
});

describe('replay', () => {
  it('replays what a reconnecting client missed, across tasks, without gaps or repeats, then goes live', async () => {
    const first = await openStream();
    await runEcho({ message: 'before' });
    const seenUpTo = Number(taskFrames(first).at(-1)?.get('id') ?? (await first.waitForFrame((f) => f.get('id') !== undefined)).get('id'));
    first.close();

    await runEcho({ message: 'missed one', log_lines: 5 });
    await runEcho({ message: 'missed two', artifacts: [{ type: 'text', content: 'x' }] });
    const missed = eventIdsAfter(seenUpTo);
    expect(missed.length).toBeGreaterThan(10);

    const again = await openStream(seenUpTo);
    await again.waitForFrame((frame) => frame.get('id') === String(missed.at(-1)));
    const live = await runEcho({ message: 'after' });
    const liveIds = t.host.store.listEvents(live).map((event) => event.id);
    await again.waitForFrame((frame) => frame.get('id') === String(liveIds.at(-1)));
    expect(taskFrames(again).map((frame) => Number(frame.get('id')))).toEqual([...missed, ...liveIds]);
  });

  it('replays a long backlog in pages, in order, to a client that reads it', async () => {
    const from = lastEventId();
    const { task } = t.host.store.createTask({ agentSlug: 'not-loaded', agentId: '00000000-0000-4000-8000-000000000001', input: { message: 'backlog' } });
    for (let batch = 0; batch < 12; batch++) {
      t.host.store.appendLogs(task.task_id, Array.from({ length: 1000 }, (_, i) => ({ level: 'INFO' as const, message: `line ${batch * 1000 + i}` })));
    }
    const expected = eventIdsAfter(from);
    expect(expected.length).toBe(12_001);
    const stream = await openStream(from);
    await stream.waitForFrame((frame) => frame.get('id') === String(expected.at(-1)), 60_000);
    const frames = taskFrames(stream);
    expect(frames.map((frame) => Number(frame.get('id')))).toEqual(expected);
    expect((dataOf(frames[1]!) as { agent_slug: string; event: TaskEvent }).agent_slug).toBe('not-loaded');
  }, 90_000);

  it('tells a client more than 50,000 events behind to refetch (reset), then continues live', async () => {
    const from = lastEventId();
    const { task } = t.host.store.createTask({ agentSlug: 'not-loaded', agentId: '00000000-0000-4000-8000-000000000001', input: { message: 'flood' } });
    const insert = t.host.db.prepare(`INSERT INTO task_events (task_id, kind, data, created_at) VALUES (?, 'log', '{"timestamp":"2026-01-01T00:00:00.000Z","level":"INFO","message":"x"}', '2026-01-01T00:00:00.000Z')`);
    t.host.db.transaction(() => {
      for (let i = 0; i < 50_001; i++) insert.run(task.task_id);
    })();
    const newest = lastEventId();
    const stream = await openStream(from);
    const reset = await stream.waitForFrame((frame) => frame.get('event') === 'reset');
    expect(reset.get('id')).toBe(String(newest));
    expect(dataOf(reset)).toEqual({ type: 'reset' });
    expect(taskFrames(stream)).toEqual([]);

    const live = await runEcho({ message: 'after reset' });
    const liveIds = t.host.store.listEvents(live).map((event) => event.id);
    await stream.waitForFrame((frame) => frame.get('id') === String(liveIds.at(-1)));
    expect(taskFrames(stream).map((frame) => Number(frame.get('id')))).toEqual(liveIds);

    // Exactly 50,000 behind is still replayed.
    const max = lastEventId();
    const near = await openStream(max - 50_000);
    await near.waitForFrame((frame) => frame.get('id') === String(max), 60_000);
    expect(near.frames.some((frame) => frame.get('event') === 'reset')).toBe(false);
    expect(taskFrames(near)).toHaveLength(50_000);
    near.close();
  }, 120_000);
});

describe('slow clients', () => {
  it('drops a client that stops reading instead of buffering for it without bound', async () => {
    const { task } = t.host.store.createTask({ agentSlug: 'not-loaded', agentId: '00000000-0000-4000-8000-000000000001', input: { message: 'stall' } });
    const line = 'x'.repeat(2000);
    const produced = { bytes: 0 };
    const result = await new Promise<{ received: number; ended: boolean }>((resolve, reject) => {
      const req = request(`${t.controlUrl}/api/events`, { headers: { cookie: client.cookie } }, (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
        });
        // Read nothing while ~40 MB of events are produced: far beyond the 64 KiB limit plus
        // what the kernel's socket buffers can hold.
        res.pause();
        const done = (): void => resolve({ received, ended: true });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
        void (async () => {
          for (let round = 0; round < 200; round++) {
            t.host.store.appendLogs(task.task_id, Array.from({ length: 100 }, () => ({ level: 'INFO' as const, message: line })));
            produced.bytes += 100 * line.length;
            await new Promise((r) => setTimeout(r, 5));
          }
          // Read again: a dropped stream ends after what was already in flight; a kept one never would.
          res.resume();
          setTimeout(() => resolve({ received, ended: false }), 10_000);
        })();
      });
      req.on('error', reject);
      req.end();
    });
    expect(result.ended).toBe(true);
    expect(result.received).toBeLessThan(produced.bytes / 2);
  }, 60_000);
});
