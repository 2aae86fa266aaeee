import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_FLUSH_LINES, LineSplitter, LogBatcher } from '../../../build/main/core/runtime/task-log.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import type { TaskEvent } from '../../../build/main/shared/protocol.js';
import { makeTempDir } from '../../support/temp-dir.js';

function split(chunks: string[], max = 10): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter(max, (line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('LineSplitter', () => {
  it('splits on newlines across chunks, strips \\r and skips empty lines', () => {
    expect(split(['one\ntw', 'o\r\n\nthr', 'ee'])).toEqual(['one', 'two', 'three']);
  });

  it('cuts an over-long line and drops the rest of it up to the next newline', () => {
    expect(split(['abcdefghij', 'klmnop', 'qrs\nnext\n'])).toEqual(['abcdefghij… [line cut at 10 characters]', 'next']);
  });

  it('cuts a line that arrives in one piece too', () => {
    expect(split(['0123456789ABC\nok'])).toEqual(['0123456789… [line cut at 10 characters]', 'ok']);
  });
});

describe('LogBatcher', () => {
  let db: Db;
  let store: TaskStore;
  let cleanup: () => void;
  let taskId: string;

  beforeEach(() => {
    const temp = makeTempDir('agent-host-logs-');
    cleanup = temp.cleanup;
    db = openDatabase(`${temp.dir}/agent-host.db`);
    store = new TaskStore(db);
    taskId = store.createTask({ agentSlug: 'a', agentId: 'id', input: {} }).task.task_id;
  });

  afterEach(() => {
    db.close();
    cleanup();
  });

  it('writes a full batch at once and the rest on the next turn, one transaction each', async () => {
    const batches: number[] = [];
    let current = 0;
    store.onEvent((event: TaskEvent) => {
      if (event.kind === 'log') current += 1;
    });
    const original = store.appendLogs.bind(store);
    store.appendLogs = (id, entries) => {
      batches.push(entries.length);
      original(id, entries);
    };
    const batcher = new LogBatcher(store, taskId, pino({ level: 'silent' }));
    for (let i = 0; i < LOG_FLUSH_LINES + 3; i += 1) batcher.push({ level: 'INFO', message: `m${i}` });
    expect(batches).toEqual([LOG_FLUSH_LINES]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([LOG_FLUSH_LINES, 3]);
    expect(current).toBe(LOG_FLUSH_LINES + 3);
  });

  it('survives a store that throws, and logs the loss', () => {
    const records: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void records.push(line) });
    const batcher = new LogBatcher(store, 'no-such-task', logger);
    batcher.push({ level: 'INFO', message: 'orphan' });
    // task_events.task_id references tasks: the insert fails, the batcher must not throw.
    expect(() => batcher.flush()).not.toThrow();
    expect(records.join('')).toMatch(/could not store task log lines/);
  });
});
