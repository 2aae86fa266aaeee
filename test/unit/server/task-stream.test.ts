import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { SSE_HEADERS, SseWriter } from '../../../build/main/core/server/sse/sse-writer.js';
import {
  HISTORY_PAGE,
  TaskStream,
  type StreamEnd,
  type StreamLogger,
  type TaskEventSource,
} from '../../../build/main/core/server/sse/task-stream.js';
import type { TaskEvent } from '../../../build/main/shared/protocol.js';
import { openRawStream, type RawFrame } from '../../support/sse-clients.js';
import { makeTempDir } from '../../support/temp-dir.js';

/**
 * TaskStream against a real store and a real HTTP connection. The event source is the store,
 * with a hook that commits events while the replay is between two pages: the hand-off from
 * history to live events is then exercised deterministically, not by luck of timing.
 */
describe('TaskStream', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Db;
  let store: TaskStore;
  let server: Server;
  let url: string;
  let afterRead: (page: TaskEvent[], call: number) => void;
  let maxBufferBytes: number;
  let ends: StreamEnd[];
  let logged: Array<{ level: string; message: string }>;

  const logger = (): StreamLogger => {
    const log = (level: string) => (first: unknown, second?: unknown) => {
      logged.push({ level, message: typeof first === 'string' ? first : String(second) });
    };
    return { info: log('info'), debug: log('debug'), error: log('error') } as unknown as StreamLogger;
  };

  beforeEach(async () => {
    tmp = makeTempDir();
    db = openDatabase(`${tmp.dir}/agent-host.db`);
    store = new TaskStore(db);
    afterRead = () => undefined;
    maxBufferBytes = 1024 * 1024;
    ends = [];
    logged = [];
    let calls = 0;
    const source: TaskEventSource = {
      onEvent: (listener) => store.onEvent(listener),
      listEvents: (taskId, afterId, limit) => {
        const page = store.listEvents(taskId, afterId, limit);
        afterRead(page, ++calls);
        return page;
      },
    };
    server = createServer((req, res) => {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const writer = new SseWriter(res, maxBufferBytes);
      writer.start(SSE_HEADERS, 2000);
      const stream = new TaskStream({
        source,
        taskId: query.get('task') ?? '',
        afterId: Number(query.get('after') ?? 0),
        writer,
        pingMs: 60_000,
        logger: logger(),
        onEnd: (reason) => ends.push(reason),
      });
      void stream.start();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    db.close();
    tmp.cleanup();
  });

  const workingTask = (): string => {
    const { task } = store.createTask({ agentSlug: 'echo', agentId: 'a', input: { message: 'x' } });
    store.transition(task.task_id, 'WORKING');
    return task.task_id;
  };
  const log = (taskId: string, count: number, from = 1): void => {
    const entries = Array.from({ length: count }, (_, i) => ({ level: 'INFO' as const, message: `line ${from + i}` }));
    store.appendLogs(taskId, entries);
  };
  const ids = (frames: RawFrame[]): number[] => frames.map((f) => Number(f.get('id')));
  const streamedIds = (taskId: string, afterId = 0): number[] =>
    store.listEvents(taskId, afterId, 100_000).filter((e) => e.kind !== 'prompt' && e.kind !== 'answer').map((e) => e.id);

  it('sends events committed during the replay exactly once and in order', async () => {
    const taskId = workingTask();
    log(taskId, 2 * HISTORY_PAGE + 200);
    let tailCommitted = false;
    afterRead = (page, call) => {
      // Between pages: these are in later pages AND in the live buffer; each must be sent once.
      if (call === 1) log(taskId, 300, 10_001);
      // After the last page was read: these reach the subscriber only from the live buffer.
      if (page.length < HISTORY_PAGE && !tailCommitted) {
        tailCommitted = true;
        log(taskId, 50, 20_001);
        store.requestInput(taskId, 'Go on?');
        store.answer(taskId, { yes: true });
        store.transition(taskId, 'COMPLETED', { output: {} });
      }
    };
    const stream = await openRawStream(url, `/?task=${taskId}`);
    await stream.ended;
    expect(tailCommitted).toBe(true);
    const frames = stream.frames.slice(1); // the first block is the retry hint
    expect(stream.frames[0]?.fields).toEqual([['retry', '2000']]);
    expect(ids(frames)).toEqual(streamedIds(taskId));
    expect(new Set(ids(frames)).size).toBe(frames.length);
    expect(frames.at(-1)?.get('event')).toBe('status');
    expect(JSON.parse(frames.at(-1)?.get('data') ?? '{}')).toMatchObject({ status: 'COMPLETED' });
    expect(ends).toEqual(['terminal']);
    expect(store.listenerCount()).toBe(0);
  });

  it('resumes after the given id and stops at the terminal status, even with log lines after it', async () => {
    const taskId = workingTask();
    log(taskId, 5);
    store.transition(taskId, 'CANCELLED');
    log(taskId, 3, 6); // a cancelled worker may still print before it is stopped
    const events = store.listEvents(taskId);
    const resumeAfter = events.find((e) => e.kind === 'log')!.id + 1;
    const terminal = events.find((e) => e.kind === 'status' && (e.data as { status: string }).status === 'CANCELLED')!;
    const stream = await openRawStream(url, `/?task=${taskId}&after=${resumeAfter}`);
    await stream.ended;
    const frames = stream.frames.slice(1);
    expect(ids(frames)).toEqual(streamedIds(taskId, resumeAfter).filter((id) => id <= terminal.id));
    expect(frames.map((f) => f.get('event'))).toEqual(['log', 'log', 'log', 'status']);
  });

  it('drops a subscriber whose waiting events pass the byte limit, and says so in the log', async () => {
    maxBufferBytes = 1024;
    const taskId = workingTask();
    log(taskId, 2 * HISTORY_PAGE);
    afterRead = (_page, call) => {
      // (Page 2: page 1 filled the socket, so the response head has gone out by now.) While
      // the replay runs, these wait in the subscriber's buffer: more than 1 KiB of them.
      if (call === 2) {
        store.appendLogs(taskId, Array.from({ length: 100 }, () => ({ level: 'INFO' as const, message: 'late' })));
        store.transition(taskId, 'COMPLETED', { output: {} });
      }
    };
    const stream = await openRawStream(url, `/?task=${taskId}`);
    await stream.ended;
    expect(ends).toEqual(['too-slow']);
    expect(logged).toContainEqual({ level: 'info', message: expect.stringContaining('dropped') });
    expect(stream.frames.some((f) => f.get('data')?.includes('"late"'))).toBe(false);
    expect(stream.frames.some((f) => f.get('event') === 'status' && f.get('data')?.includes('COMPLETED'))).toBe(false);
    expect(store.listenerCount()).toBe(0);
  });
});
