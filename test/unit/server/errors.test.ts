import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startServer, type ServerFixture } from './server-fixture.js';

let s: ServerFixture;
beforeAll(async () => {
  s = await startServer({
    server: { body_limit: 2048 },
    cardFor: (agent) => {
      if (agent.slug === 'other') throw new Error('boom: card builder exploded at /secret/path');
      return {
        protocol_version: '1.0',
        agent_id: agent.agentId,
        display_name: agent.manifest.display_name,
        description: agent.manifest.description,
        capabilities: [],
        input_schema: agent.manifest.input_schema,
      };
    },
  });
});
afterAll(async () => {
  await s.close();
});

const countTasks = (): number => (s.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;
const validBody = '{"input":{"message":"x"}}';

/** Sends bytes as they are over a socket and returns the raw response text. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('request bodies', () => {
  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    for (const body of ['{"input": {"message": ', '{input: {}}', "{'input':{}}", '{"input":{}} trailing']) {
      const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(errorOf(res).code, body).toBe('MALFORMED_JSON');
    }
  });

  it('refuses prototype-poisoning JSON', async () => {
    const body = '{"input":{"message":"x","__proto__":{"polluted":true}}}';
    const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('MALFORMED_JSON');
  });

  it('refuses any body that is not declared as application/json with 415', async () => {
    const before = countTasks();
    const types = [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json-seq',
      'application/jsonx',
      'application/json+x',
      'text/json',
      'application/vnd.api+json',
      'application/json; charset=latin1',
      'application/json; charset=utf-8; evil=1',
      'application/json, text/plain',
      'garbage',
    ];
    for (const type of types) {
      const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': type }, body: validBody });
      expect(res.status, type).toBe(415);
      expect(errorOf(res).code, type).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const untyped = await s.raw('/agents/echo/tasks', { method: 'POST', body: validBody });
    expect(untyped.status).toBe(415);
    expect(errorOf(untyped).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(countTasks()).toBe(before);
  });

  it('accepts application/json with a UTF-8 charset, in any case', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/json;']) {
      const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': type }, body: validBody });
      expect(res.status, type).toBe(202);
    }
  });

  it('refuses an empty create: 415 without a Content-Type, 400 with one', async () => {
    const untyped = await s.raw('/agents/echo/tasks', { method: 'POST' });
    expect(untyped.status).toBe(415);
    expect(errorOf(untyped).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const typed = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    expect(typed.status).toBe(400);
    expect(errorOf(typed).code).toBe('BAD_REQUEST');
  });

  it('answers a body over body_limit with 413, declared or chunked', async () => {
    const before = countTasks();
    const big = JSON.stringify({ input: { message: 'x'.repeat(4096) } });
    const declared = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(errorOf(declared).code).toBe('PAYLOAD_TOO_LARGE');
    const chunked = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big, chunked: true });
    expect(chunked.status).toBe(413);
    expect(errorOf(chunked).code).toBe('PAYLOAD_TOO_LARGE');
    expect(countTasks()).toBe(before);
    // Just under the limit is fine.
    const fits = JSON.stringify({ input: { message: 'x'.repeat(1900) } });
    expect((await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: fits })).status).toBe(202);
  });

  it('ignores a body on GET rather than parsing it', async () => {
    const res = await s.raw('/agents', { headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(200);
  });
});

describe('routes', () => {
  it('answers unknown paths with 404 NOT_FOUND', async () => {
    for (const path of ['/', '/nothing', '/agents/', '/agents/echo', '/agents/echo/tasks/x/y/z', '/agents/echo/stream', '/AGENTS']) {
      const res = await s.raw(path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code, path).toBe('NOT_FOUND');
    }
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/agents/echo/tasks', 'POST'],
      ['GET', '/agents/echo/tasks', 'POST'],
      ['PUT', '/agents/echo/tasks/abc', 'GET, HEAD'],
      ['GET', '/agents/echo/tasks/abc/cancel', 'POST'],
      ['POST', '/agents', 'GET, HEAD'],
      ['PATCH', '/agents/echo/agent-card.json', 'GET, HEAD'],
      ['POST', '/agents/echo/artifacts/abc/content', 'GET, HEAD'],
      ['OPTIONS', '/agents', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      // A body of the wrong type must not turn the 405 into a 415 (OPTIONS bodies are exotic and
      // reach the CORS plugin's catch-all route, so OPTIONS is sent without one).
      const body = method === 'OPTIONS' ? {} : { headers: { 'content-type': 'text/plain' }, body: 'x' };
      const res = await s.raw(path, { method, ...body });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(errorOf(res).code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers['allow'], `${method} ${path}`).toBe(allow);
    }
  });

  it('answers unknown agents with 404 AGENT_NOT_FOUND on every agent route, before reading the body', async () => {
    const paths: Array<[string, string]> = [
      ['GET', '/agents/nope/agent-card.json'],
      ['POST', '/agents/nope/tasks'],
      ['GET', '/agents/nope/tasks/abc'],
      ['POST', '/agents/nope/tasks/abc/cancel'],
      ['POST', '/agents/nope/tasks/abc/input'],
      ['GET', '/agents/nope/tasks/abc/artifacts'],
      ['GET', '/agents/nope/artifacts/abc/content'],
    ];
    for (const [method, path] of paths) {
      const res = await s.raw(path, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{"not valid for any route": true}' } : { method });
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code, path).toBe('AGENT_NOT_FOUND');
    }
  });

  it('answers an undecodable URL with 400 BAD_REQUEST', async () => {
    const res = await s.raw('/agents/%E0%A4%A/tasks');
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('BAD_REQUEST');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers HTTP that cannot be parsed with a JSON 400', async () => {
    const response = await rawExchange(s.port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    const body = response.slice(response.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
  });
});

describe('unexpected errors', () => {
  it('answers 500 INTERNAL_ERROR with a generic message and logs the real error', async () => {
    const res = await s.raw('/agents/other/agent-card.json');
    expect(res.status).toBe(500);
    const error = errorOf(res);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).not.toMatch(/boom|secret/);
    expect(s.logLines.join('\n')).toContain('boom: card builder exploded');
  });
});

describe('every response', () => {
  it('carries X-Content-Type-Options: nosniff, errors included', async () => {
    const responses = [
      await s.raw('/agents'),
      await s.raw('/nothing'),
      await s.raw('/agents', { method: 'DELETE' }),
      await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      await s.raw('/agents', { headers: { host: 'evil.example' } }),
      await s.raw('/agents/other/agent-card.json'),
    ];
    for (const res of responses) expect(res.headers['x-content-type-options'], String(res.status)).toBe('nosniff');
  });
});

describe('closing', () => {
  it('answers requests that arrive while the server closes with 503 SHUTTING_DOWN', async () => {
    const c = await startServer();
    try {
      const task = c.taskIn('echo', 'WORKING');
      // A download too big for the socket buffers keeps the connection busy (not idle, so
      // close() doesn't drop it) while the next request is pipelined behind it.
      const big = c.addFileArtifact(task.task_id, `${task.task_id}/big.bin`, randomBytes(32 * 1024 * 1024));
      const socket = connect(c.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        socket.on('end', resolve);
        socket.on('error', reject);
      });
      await new Promise<void>((resolve) => {
        socket.once('data', (chunk: Buffer) => {
          socket.pause();
          chunks.push(chunk);
          resolve();
        });
        socket.write(`GET /agents/echo/artifacts/${big.artifact.artifact_id}/content HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      });
      const closing = c.app.close();
      socket.write('GET /agents HTTP/1.1\r\nHost: localhost\r\n\r\n');
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await ended;
      await closing;
      const all = Buffer.concat(chunks);
      expect(all.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
      const second = all.subarray(all.lastIndexOf('HTTP/1.1 ')).toString('utf8');
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({
        error: { code: 'SHUTTING_DOWN', message: expect.any(String) },
      });
    } finally {
      await c.close();
    }
  });
});
