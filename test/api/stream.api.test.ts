import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody, Task, TaskEventDataMap } from '../../build/main/shared/protocol.js';
import { openEventSource, openRawStream, type EventSourceClient, type SseMessage } from '../support/sse-clients.js';
import { rawRequest } from '../support/raw-http.js';
import { FIXTURE_PLUGINS, ISO_TIMESTAMP, startTestHost, type TestHost } from '../support/test-host.js';

const STREAM_PLUGINS = fileURLToPath(new URL('../fixtures/stream-plugins', import.meta.url));
const ORIGIN = 'https://app.example';
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED'];
const SSE_NAMES: Record<string, string | undefined> = { status: 'status', log: 'log', artifact: 'artifact.update' };

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ config: { server: { allowed_origins: [ORIGIN] }, runtime: { cancel_grace_ms: 500 } } });
});
afterAll(async () => {
  await t.cleanup();
});

/**
 * What the stream must send for a task, built from the store's event log: status, log and
 * artifact events (prompts and answers have none), each with its task_events id, up to and
 * including the terminal status.
 */
function expectedEvents(host: TestHost, taskId: string, afterId = 0): SseMessage[] {
  const out: SseMessage[] = [];
  for (const event of host.host.store.listEvents(taskId, afterId, 1_000_000)) {
    const name = SSE_NAMES[event.kind];
    if (name === undefined) continue;
    const data = event.kind === 'artifact' ? { artifact_id: (event.data as TaskEventDataMap['artifact']).artifact_id } : event.data;
    out.push({ event: name, id: String(event.id), data });
    if (event.kind === 'status' && TERMINAL.includes((event.data as Task).status)) break;
  }
  return out;
}

async function create(host: TestHost, slug: string, input: Record<string, unknown>): Promise<string> {
  const res = await host.request<Task>('POST', `/agents/${slug}/tasks`, { input });
  expect(res.status).toBe(202);
  return res.body.task_id;
}

const streamPath = (slug: string, taskId: string, query = ''): string => `/agents/${slug}/tasks/${taskId}/stream${query}`;
const subscribe = (host: TestHost, taskId: string, options: Parameters<typeof openEventSource>[1] = {}, slug = 'echo'): EventSourceClient =>
  openEventSource(`${host.url}${streamPath(slug, taskId)}`, options);
const statusesOf = (messages: SseMessage[]): string[] =>
  messages.filter((m) => m.event === 'status').map((m) => (m.data as Task).status);
const isStatus = (status: string) => (m: SseMessage): boolean => m.event === 'status' && (m.data as Task).status === status;

function expectIncreasingIds(messages: SseMessage[]): void {
  const ids = messages.map((m) => Number(m.id));
  expect(ids.every((id, i) => Number.isInteger(id) && id > 0 && (i === 0 || id > ids[i - 1]!))).toBe(true);
}

/** A client that sends the GET, reads the response head, then stops reading. */
async function stuckClient(host: TestHost, path: string): Promise<{ socket: Socket; readRest: () => Promise<string> }> {
  const socket = connect(host.host.port, '127.0.0.1');
  // The connection may be cut by the server: that is what some tests look for.
  socket.on('error', () => undefined);
  socket.setEncoding('utf8');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${host.host.port}\r\nAccept: text/event-stream\r\n\r\n`);
  let received = await new Promise<string>((resolve) => socket.once('data', (chunk: string) => resolve(chunk)));
  expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  socket.pause();
  const readRest = (): Promise<string> =>
    new Promise((resolve) => {
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.resume();
    });
  return { socket, readRest };
}

describe('GET {base}/tasks/{id}/stream', () => {
  it('streams a task from SUBMITTED to COMPLETED: statuses, logs and artifact updates with their ids, then closes', async () => {
    const taskId = await create(t, 'echo', {
      message: 'hi',
      log_lines: 3,
      delay_ms: 200,
      artifacts: [
        { type: 'text', content: 'a note' },
        { type: 'file', filename: 'report.txt', content: 'the report' },
      ],
    });
    const client = subscribe(t, taskId);
    await client.ended;
    const events = client.events();
    expect(events.map((m) => m.event)).toEqual(['status', 'status', 'log', 'log', 'log', 'artifact.update', 'artifact.update', 'status']);
    expect(statusesOf(events)).toEqual(['SUBMITTED', 'WORKING', 'COMPLETED']);
    expect(events.filter((m) => m.event === 'log').map((m) => m.data)).toEqual(
      [1, 2, 3].map((n) => ({ timestamp: expect.stringMatching(ISO_TIMESTAMP), level: 'INFO', message: `echo log line ${n} of 3` })),
    );
    const artifacts = await t.request<{ artifacts: Array<{ artifact_id: string }> }>('GET', `/agents/echo/tasks/${taskId}/artifacts`);
    expect(events.filter((m) => m.event === 'artifact.update').map((m) => m.data)).toEqual(
      artifacts.body.artifacts.map((a) => ({ artifact_id: a.artifact_id })),
    );
    expect(events.at(-1)?.data).toEqual((await t.request<Task>('GET', `/agents/echo/tasks/${taskId}`)).body);
    expectIncreasingIds(events);
    expect(events).toEqual(expectedEvents(t, taskId));
    // The server ended the stream: EventSource reported it and would have reconnected.
    expect(client.errors[0]?.readyState).toBe(client.source.CONNECTING);
  });

  it('ends after FAILED, with the error in the status event', async () => {
    const taskId = await create(t, 'echo', { message: 'x', delay_ms: 100, fail: { code: 'QUOTA_EXCEEDED', message: 'no more quota' } });
    const client = subscribe(t, taskId);
    await client.ended;
    expect(statusesOf(client.events())).toEqual(['SUBMITTED', 'WORKING', 'FAILED']);
    expect(client.events().at(-1)?.data).toMatchObject({ status: 'FAILED', error: { code: 'QUOTA_EXCEEDED', message: 'no more quota' } });
    expect(client.events()).toEqual(expectedEvents(t, taskId));
  });

  it('ends after CANCELLED when the task is cancelled while streaming', async () => {
    const taskId = await create(t, 'echo', { message: 'x', delay_ms: 60_000 });
    const client = subscribe(t, taskId);
    await client.waitFor(isStatus('WORKING'));
    expect((await t.request('POST', `/agents/echo/tasks/${taskId}/cancel`)).status).toBe(202);
    await client.ended;
    expect(statusesOf(client.events())).toEqual(['SUBMITTED', 'WORKING', 'CANCELLED']);
    expect(client.events()).toEqual(expectedEvents(t, taskId));
  });

  it('follows INPUT_REQUIRED, the answer and completion; prompts and answers show only as status events', async () => {
    const taskId = await create(t, 'echo', { message: 'm', ask: 'What is your name?' });
    const client = subscribe(t, taskId);
    const waiting = await client.waitFor(isStatus('INPUT_REQUIRED'));
    expect(waiting.data).toMatchObject({ prompt: 'What is your name?' });
    expect((await t.request('POST', `/agents/echo/tasks/${taskId}/input`, { input: { name: 'Ada' } })).status).toBe(200);
    await client.ended;
    const events = client.events();
    expect(statusesOf(events)).toEqual(['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'WORKING', 'COMPLETED']);
    expect(events.at(-1)?.data).toMatchObject({ output: { message: 'm', answer: { name: 'Ada' } } });
    const skipped = t.host.store.listEvents(taskId).filter((e) => e.kind === 'prompt' || e.kind === 'answer').map((e) => String(e.id));
    expect(skipped).toHaveLength(2);
    for (const id of skipped) expect(events.map((m) => m.id)).not.toContain(id);
    expect(events).toEqual(expectedEvents(t, taskId));
  });

  it('gives a late subscriber the whole history and closes; its reconnect gets 204, so EventSource stops', async () => {
    const taskId = await create(t, 'echo', { message: 'x', log_lines: 5, artifacts: [{ type: 'url', content: 'https://example.com/' }] });
    await t.waitForStatus(taskId, 'COMPLETED');
    const client = subscribe(t, taskId, { reconnect: true });
    await client.ended;
    expect(client.events()).toEqual(expectedEvents(t, taskId));
    // EventSource reconnects by itself, sending the last id it saw: nothing follows the final status.
    expect(await client.failed).toBe(204);
    expect(client.source.readyState).toBe(client.source.CLOSED);
    expect(client.events()).toEqual(expectedEvents(t, taskId));
  });

  it('resumes after a dropped connection with exactly the missed events (Last-Event-ID)', async () => {
    const taskId = await create(t, 'echo', { message: 'r', log_lines: 2000, ask: 'Go on?' });
    const first = subscribe(t, taskId);
    await first.waitFor((m) => m.event === 'log' && (m.data as { message: string }).message === 'echo log line 1000 of 2000');
    first.close(); // the client drops mid-stream
    const seen = first.events();
    const lastSeen = seen.at(-1)!.id;
    await t.waitForStatus(taskId, 'INPUT_REQUIRED'); // meanwhile the task moves on

    const second = subscribe(t, taskId, { lastEventId: lastSeen });
    await second.waitFor(isStatus('INPUT_REQUIRED'));
    expect((await t.request('POST', `/agents/echo/tasks/${taskId}/input`, { input: { ok: true } })).status).toBe(200);
    await second.ended;

    expect(second.events()[0]?.id).not.toBe(lastSeen);
    expect(second.events()).toEqual(expectedEvents(t, taskId, Number(lastSeen)));
    const all = [...seen, ...second.events()];
    expect(all).toEqual(expectedEvents(t, taskId));
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(statusesOf(all)).toEqual(['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'WORKING', 'COMPLETED']);
  });

  it('takes the resume point from ?last_event_id=, and from Last-Event-ID when both are given', async () => {
    const taskId = await create(t, 'echo', { message: 'q', log_lines: 6 });
    await t.waitForStatus(taskId, 'COMPLETED');
    const all = expectedEvents(t, taskId);
    const fromQuery = openEventSource(`${t.url}${streamPath('echo', taskId, `?last_event_id=${all[3]!.id}`)}`);
    await fromQuery.ended;
    expect(fromQuery.events()).toEqual(all.slice(4));

    const both = await openRawStream(t.url, streamPath('echo', taskId, `?last_event_id=${all[1]!.id}`), { 'Last-Event-ID': all[5]!.id });
    await both.ended;
    expect(both.frames.slice(1).map((f) => f.get('id'))).toEqual(all.slice(6).map((m) => m.id));
  });

  it('refuses a malformed Last-Event-ID or last_event_id with 400 in the error format', async () => {
    const taskId = await create(t, 'echo', { message: 'x' });
    const cases: Array<[string, Record<string, string>]> = [
      ['', { 'Last-Event-ID': 'abc' }],
      ['', { 'Last-Event-ID': '-1' }],
      ['?last_event_id=1.5', {}],
      ['?last_event_id=', {}],
      ['?last_event_id=1&last_event_id=2', {}],
    ];
    for (const [query, headers] of cases) {
      const res = await rawRequest(t.url, { path: streamPath('echo', taskId, query), headers: { host: new URL(t.url).host, ...headers } });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((res.json as ErrorBody).error.code).toBe('BAD_REQUEST');
    }
  });

  it('answers 404 in JSON for an unknown task, another agent\'s task and an unknown agent', async () => {
    const taskId = await create(t, 'echo', { message: 'x' });
    const cases: Array<[string, string]> = [
      [streamPath('echo', '00000000-0000-4000-8000-000000000000'), 'TASK_NOT_FOUND'],
      [streamPath('python-script', taskId), 'TASK_NOT_FOUND'],
      [streamPath('no-such-agent', taskId), 'AGENT_NOT_FOUND'],
    ];
    for (const [path, code] of cases) {
      const res = await t.request<ErrorBody>('GET', path, undefined, { accept: 'text/event-stream' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body.error.code).toBe(code);
    }
  });

  it('answers HEAD with the stream headers and no body', async () => {
    const taskId = await create(t, 'echo', { message: 'x', delay_ms: 60_000 });
    const res = await rawRequest(t.url, { method: 'HEAD', path: streamPath('echo', taskId), headers: { host: new URL(t.url).host } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.text).toBe('');
    await t.request('POST', `/agents/echo/tasks/${taskId}/cancel`);
  });

  it('shows curl the exact wire format, with anti-buffering and CORS headers for an allowed origin', async () => {
    const taskId = await create(t, 'echo', { message: 'c', log_lines: 2, delay_ms: 300, artifacts: [{ type: 'text', content: 't' }] });
    const curl = spawn('/usr/bin/curl', ['-sS', '-N', '-i', '-H', `Origin: ${ORIGIN}`, `${t.url}${streamPath('echo', taskId)}`]);
    let output = '';
    curl.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exitCode = await new Promise<number | null>((resolve) => curl.on('close', resolve));
    expect(exitCode).toBe(0); // curl saw a complete response: the server ended the stream cleanly

    const [head = '', body = ''] = output.split('\r\n\r\n', 2);
    const headers = new Map(
      head.split('\r\n').slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(Object.fromEntries(headers)).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': ORIGIN,
      vary: 'Origin',
    });
    const frames = expectedEvents(t, taskId).map((m) => `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
    expect(body).toBe(`retry: 2000\n\n${frames.join('')}`);
    expect(statusesOf(expectedEvents(t, taskId))).toEqual(['SUBMITTED', 'WORKING', 'COMPLETED']);
  });

  it('gives 20 subscribers of one task, joining before and during its run, the same events', async () => {
    const taskId = await create(t, 'echo', { message: 'many', log_lines: 3000, delay_ms: 200, artifacts: [{ type: 'text', content: 'x' }] });
    const early = Array.from({ length: 10 }, () => subscribe(t, taskId));
    await early[0]!.waitFor((m) => m.event === 'log' && (m.data as { message: string }).message === 'echo log line 1500 of 3000');
    const late = Array.from({ length: 10 }, () => subscribe(t, taskId));
    const clients = [...early, ...late];
    await Promise.all(clients.map((c) => c.ended));
    const expected = expectedEvents(t, taskId);
    expect(expected.filter((m) => m.event === 'log')).toHaveLength(3000);
    for (const client of clients) expect(client.events()).toEqual(expected);
  });

  it('unsubscribes from the store when clients go away (no listener leak)', async () => {
    const before = t.host.store.listenerCount();
    const taskId = await create(t, 'echo', { message: 'x', delay_ms: 60_000 });
    const clients = Array.from({ length: 5 }, () => subscribe(t, taskId));
    await Promise.all(clients.map((c) => c.waitFor(isStatus('WORKING'))));
    const raw = await openRawStream(t.url, streamPath('echo', taskId));
    await raw.waitForFrame((f) => f.get('event') === 'status');
    expect(t.host.store.listenerCount()).toBe(before + 6);
    for (const client of clients) client.close();
    raw.close();
    await vi.waitFor(() => expect(t.host.store.listenerCount()).toBe(before), { timeout: 10_000, interval: 20 });
    await t.request('POST', `/agents/echo/tasks/${taskId}/cancel`);
  });
});

describe('pings and slow subscribers', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({
      config: { server: { sse_ping_ms: 100, sse_max_buffer_bytes: 1024 * 1024 } },
      pluginDirs: [FIXTURE_PLUGINS, STREAM_PLUGINS],
    });
  });
  afterAll(async () => {
    await h.cleanup();
  });

  it('sends a ping without an id while nothing else happens', async () => {
    const taskId = await create(h, 'echo', { message: 'x', ask: 'Anyone there?' });
    const raw = await openRawStream(h.url, streamPath('echo', taskId));
    const ping = await raw.waitForFrame((f) => f.get('event') === 'ping');
    expect(ping.fields.map(([name]) => name)).toEqual(['event', 'data']);
    expect(JSON.parse(ping.get('data') ?? '')).toEqual({ timestamp: expect.stringMatching(ISO_TIMESTAMP) });
    raw.close();

    const client = subscribe(h, taskId);
    const seen = await client.waitFor((m) => m.event === 'ping');
    expect(seen.id).toBe('');
    expect(client.events()).toEqual(expectedEvents(h, taskId));
    client.close();
    await h.request('POST', `/agents/echo/tasks/${taskId}/cancel`);
  });

  it('drops a subscriber that stops reading, while a reading one gets all 10,000 lines in order', async () => {
    const lines = 10_000;
    // 1 KiB lines: ~11 MB of events, far more than the kernel's socket buffers (a few MB on
    // loopback) plus the 1 MiB limit. In bursts of 100 lines, as the reader runs in this process.
    const taskId = await create(h, 'chatty', { wait: true, lines, line_chars: 1000, pause_every: 100, pause_ms: 2 });
    await h.waitForStatus(taskId, 'INPUT_REQUIRED');
    const before = h.host.store.listenerCount();
    const stuck = await stuckClient(h, streamPath('chatty', taskId));
    const reader = subscribe(h, taskId, {}, 'chatty');
    await reader.waitFor(isStatus('INPUT_REQUIRED'));
    expect(h.host.store.listenerCount()).toBe(before + 2);

    expect((await h.request('POST', `/agents/chatty/tasks/${taskId}/input`, { input: {} })).status).toBe(200);
    await reader.ended;
    const logs = reader.events().filter((m) => m.event === 'log');
    expect(logs).toHaveLength(lines);
    logs.forEach((m, i) => expect((m.data as { message: string }).message.startsWith(`line ${i + 1} x`)).toBe(true));
    expect(reader.events()).toEqual(expectedEvents(h, taskId));
    expect(statusesOf(reader.events()).at(-1)).toBe('COMPLETED');

    // The stuck client was cut off: it gets what was already on its way, never the end.
    const received = await stuck.readRest();
    expect(received).not.toContain('"status":"COMPLETED"');
    expect(received.endsWith('0\r\n\r\n')).toBe(false);
    expect(received.split('\nevent: log\n').length - 1).toBeLessThan(lines);
    await vi.waitFor(() => expect(h.host.store.listenerCount()).toBe(before), { timeout: 10_000, interval: 20 });

    // The whole history again, to a late subscriber: paged from the database, at the client's pace.
    const late = subscribe(h, taskId, {}, 'chatty');
    await late.ended;
    expect(late.events()).toEqual(reader.events());
  });
});

describe('shutdown', () => {
  it('ends open streams when the host closes, including one whose client stopped reading', async () => {
    const c = await startTestHost({ config: { runtime: { shutdown_grace_ms: 1000, cancel_grace_ms: 500 } } });
    try {
      const taskId = await create(c, 'echo', { message: 'x', delay_ms: 60_000 });
      const clients = Array.from({ length: 3 }, () => subscribe(c, taskId));
      await Promise.all(clients.map((client) => client.waitFor(isStatus('WORKING'))));
      const raw = await openRawStream(c.url, streamPath('echo', taskId));
      await raw.waitForFrame((f) => f.get('event') === 'status');
      const stuck = await stuckClient(c, streamPath('echo', taskId));

      // Without ending the streams, closing the server would wait for these connections forever.
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        c.stop().then(() => 'closed'),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open after 15 s'), 15_000))),
      ]);
      clearTimeout(timer);
      expect(outcome).toBe('closed');
      await Promise.all([...clients.map((client) => client.ended), raw.ended, stuck.readRest()]);
    } finally {
      await c.cleanup();
    }
  });
});
