import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Task } from '../../build/main/shared/protocol.js';
import { rawRequest } from '../support/raw-http.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ config: { server: { body_limit: 4096 }, agents: { 'python-script': { enabled: false } } } });
});
afterAll(async () => {
  await t.cleanup();
});

function expectError(res: { status: number; json: unknown }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.json).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(Object.keys((res.json as ErrorBody).error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
}

const post = (path: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  rawRequest(t.url, { method: 'POST', path, headers, ...(body !== undefined ? { body } : {}) });

describe('bad input never changes what is stored', () => {
  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    expectError(await post('/agents/echo/tasks', '{"input": {"message": '), 400, 'MALFORMED_JSON');
  });

  it('answers a non-JSON body with 415', async () => {
    expectError(await post('/agents/echo/tasks', 'message=hi', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await post('/agents/echo/tasks', '{"input":{"message":"x"}}', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await post('/agents/echo/tasks', '{"input":{"message":"x"}}', {}), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset', async () => {
    const res = await post('/agents/echo/tasks', '{"input":{"message":"x"}}', { 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(202);
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ input: { message: 'x'.repeat(10_000) } });
    expectError(await post('/agents/echo/tasks', big), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not an object with input with 400', async () => {
    for (const body of ['[]', '"text"', '{}', '{"input": []}', '{"input": "x"}', 'null']) {
      const res = await post('/agents/echo/tasks', body);
      expect(res.status, body).toBe(400);
      expect(['BAD_REQUEST', 'INVALID_INPUT', 'MALFORMED_JSON']).toContain((res.json as ErrorBody).error.code);
    }
  });

  it('answers unknown agents, tasks and artifacts with 404 and their own codes', async () => {
    expectError(await rawRequest(t.url, { path: '/agents/nope/agent-card.json' }), 404, 'AGENT_NOT_FOUND');
    expectError(await post('/agents/nope/tasks', '{"input":{}}'), 404, 'AGENT_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/agents/echo/tasks/00000000-0000-4000-8000-000000000000' }), 404, 'TASK_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/agents/echo/tasks/not-a-uuid' }), 404, 'TASK_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/agents/echo/tasks/%27%3B%20DROP%20TABLE%20tasks/artifacts' }), 404, 'TASK_NOT_FOUND');
    expectError(await post('/agents/echo/tasks/not-a-uuid/cancel', undefined, {}), 404, 'TASK_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/agents/echo/artifacts/00000000-0000-4000-8000-000000000000/content' }), 404, 'ARTIFACT_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/agents/echo/artifacts/x/content' }), 404, 'ARTIFACT_NOT_FOUND');
    expectError(await rawRequest(t.url, { path: '/nothing-here' }), 404, 'NOT_FOUND');
  });

  it('answers a wrong method on a known path with a JSON error', async () => {
    const res = await rawRequest(t.url, { method: 'DELETE', path: '/agents/echo/tasks' });
    expect([404, 405]).toContain(res.status);
    expect((res.json as ErrorBody).error.code).toMatch(/METHOD_NOT_ALLOWED|NOT_FOUND/);
  });

  it('refuses create and card of a disabled agent but keeps it out of the listing', async () => {
    expectError(await post('/agents/python-script/tasks', '{"input":{"topic":"x","filename":"a.py"}}'), 503, 'AGENT_DISABLED');
    const list = await rawRequest(t.url, { path: '/agents' });
    expect((list.json as { agents: Array<{ slug: string }> }).agents.map((a) => a.slug)).not.toContain('python-script');
  });

  it('cancels with an empty body and no content type, as the protocol says', async () => {
    const created = await post('/agents/echo/tasks', '{"input":{"message":"x","delay_ms":60000}}');
    const id = (created.json as Task).task_id;
    const res = await post(`/agents/echo/tasks/${id}/cancel`, undefined, {});
    expect(res.status).toBe(202);
    expect((res.json as Task).status).toBe('CANCELLED');
  });
});

describe('security baseline', () => {
  it('refuses a Host header that is not this server (DNS rebinding)', async () => {
    expectError(await rawRequest(t.url, { path: '/agents', headers: { host: 'evil.example:7410' } }), 403, 'HOST_NOT_ALLOWED');
    for (const host of ['localhost', `127.0.0.1:${new URL(t.url).port}`, `[::1]:${new URL(t.url).port}`, `LOCALHOST:${new URL(t.url).port}`]) {
      expect((await rawRequest(t.url, { path: '/agents', headers: { host } })).status, host).toBe(200);
    }
  });

  it('refuses a disallowed Origin and never sends wildcard CORS', async () => {
    const res = await rawRequest(t.url, { path: '/agents', headers: { origin: 'https://evil.example' } });
    expectError(res, 403, 'ORIGIN_NOT_ALLOWED');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const created = await post('/agents/echo/tasks', '{"input":{"message":"x"}}', { 'content-type': 'application/json', origin: 'https://evil.example' });
    expectError(created, 403, 'ORIGIN_NOT_ALLOWED');
    const plain = await rawRequest(t.url, { path: '/agents' });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('requires a valid bearer token when configured, created with the CLI store', async () => {
    const local = await startTestHost({ config: { server: { require_token: true } } });
    try {
      expectError(await rawRequest(local.url, { path: '/agents' }), 401, 'UNAUTHORIZED');
      const { token, token_id } = local.host.tokens.create('test');
      expect((await rawRequest(local.url, { path: '/agents', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expectError(await rawRequest(local.url, { path: '/agents', headers: { authorization: `Bearer ${token}x` } }), 401, 'UNAUTHORIZED');
      local.host.tokens.revoke(token_id);
      expectError(await rawRequest(local.url, { path: '/agents', headers: { authorization: `Bearer ${token}` } }), 401, 'UNAUTHORIZED');
    } finally {
      await local.cleanup();
    }
  });
});
