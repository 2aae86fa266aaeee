import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSchema } from '../../../build/main/core/agents/schema-validation.js';
import type { Artifact, Task } from '../../../build/main/shared/protocol.js';
import { errorOf, ISO, startServer, type ServerFixture } from './server-fixture.js';

let s: ServerFixture;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const countTasks = (): number => (s.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('GET /agents and the agent card', () => {
  it('lists enabled agents with absolute URLs built from the Host header', async () => {
    const res = await s.raw('/agents', { headers: { host: `localhost:${s.port}` } });
    expect(res.status).toBe(200);
    const base = `http://localhost:${s.port}/agents`;
    expect(res.json).toEqual({
      agents: [
        {
          slug: 'echo',
          agent_id: s.agents.get('echo')!.agentId,
          display_name: 'Agent echo',
          url: `${base}/echo`,
          card_url: `${base}/echo/agent-card.json`,
        },
        {
          slug: 'other',
          agent_id: s.agents.get('other')!.agentId,
          display_name: 'Agent other',
          url: `${base}/other`,
          card_url: `${base}/other/agent-card.json`,
        },
      ],
    });
  });

  it('answers HEAD on JSON routes with the GET headers and no body', async () => {
    const get = await s.raw('/agents');
    const head = await s.raw('/agents', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it('serves the card at both addresses, unchanged', async () => {
    for (const path of ['/agents/echo/agent-card.json', '/agents/echo/.well-known/agent-card.json']) {
      const res = await s.raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json).toEqual({
        protocol_version: '1.0',
        agent_id: s.agents.get('echo')!.agentId,
        display_name: 'Agent echo',
        description: 'The echo agent used by the server tests.',
        capabilities: ['testing'],
        input_schema: s.agents.get('echo')!.manifest.input_schema,
        output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
    }
  });

  it('answers a disabled agent card with 503 AGENT_DISABLED and an unknown one with 404', async () => {
    const disabled = await s.raw('/agents/off/agent-card.json');
    expect(disabled.status).toBe(503);
    expect(errorOf(disabled).code).toBe('AGENT_DISABLED');
    const unknown = await s.raw('/agents/nope/.well-known/agent-card.json');
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('AGENT_NOT_FOUND');
  });
});

describe('POST {base}/tasks', () => {
  it('creates a SUBMITTED task: 202, the full task, a Location, and the runtime told', async () => {
    const queuedBefore = s.scheduler.queued.length;
    const res = await s.postJson('/agents/echo/tasks', { input: { message: 'hello', count: 2 } });
    expect(res.status).toBe(202);
    const task = res.json as Task;
    expect(task).toEqual({
      task_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agent_id: s.agents.get('echo')!.agentId,
      status: 'SUBMITTED',
      input: { message: 'hello', count: 2 },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(res.headers['location']).toBe(`${s.url}/agents/echo/tasks/${task.task_id}`);
    expect(s.store.getTask('echo', task.task_id)).toEqual(task);
    expect(s.scheduler.queued.slice(queuedBefore)).toEqual(['echo']);
  });

  it('keeps nested free-form input intact through the response schema', async () => {
    const agent = s.agents.get('echo')!;
    const loose = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
    s.agents.set('loose', { ...agent, slug: 'loose', validateInput: compileSchema(loose) });
    try {
      const input = { message: 'x', nested: { deep: [1, { a: null, b: 'é' }], flag: true }, list: [] };
      const res = await s.postJson('/agents/loose/tasks', { input });
      expect(res.status).toBe(202);
      expect((res.json as Task).input).toEqual(input);
    } finally {
      s.agents.delete('loose');
    }
  });

  it('stores a valid notification_config', async () => {
    const notification_config = { endpoint_url: 'https://orchestrator.example/hooks?x=1', auth_header: 'Authorization: Bearer abc def' };
    const res = await s.postJson('/agents/echo/tasks', { input: { message: 'x' }, notification_config });
    expect(res.status).toBe(202);
    expect(s.store.getRecord((res.json as Task).task_id)?.notificationConfig).toEqual(notification_config);
  });

  it('refuses input that fails the input_schema: 400 INVALID_INPUT with details, nothing stored', async () => {
    const before = countTasks();
    const queuedBefore = s.scheduler.queued.length;
    const res = await s.postJson('/agents/echo/tasks', { input: { count: -1, extra: true } });
    expect(res.status).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ keyword: 'required' }),
        expect.objectContaining({ path: '/count', keyword: 'minimum' }),
      ]),
    );
    expect(countTasks()).toBe(before);
    expect(s.scheduler.queued.length).toBe(queuedBefore);
  });

  it('refuses a body with other keys or a bad notification_config: 400 BAD_REQUEST with details', async () => {
    const before = countTasks();
    const bad: unknown[] = [
      { input: { message: 'x' }, extra: 1 },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'ftp://example.com/x' } },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'javascript:alert(1)' } },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'not a url' } },
      { input: { message: 'x' }, notification_config: {} },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'https://a.example', auth_header: 'no colon here' } },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'https://a.example', auth_header: 'Bad Name: v' } },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'https://a.example', auth_header: 'X-A: b\r\nX-B: c' } },
      { input: { message: 'x' }, notification_config: { endpoint_url: 'https://a.example', other: 1 } },
      { input: 'x' },
      { input: [] },
      {},
      [],
      null,
    ];
    for (const body of bad) {
      const res = await s.postJson('/agents/echo/tasks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = errorOf(res);
      expect(error.code, JSON.stringify(body)).toBe('BAD_REQUEST');
      expect(error.details?.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(error.details?.[0]).toEqual(expect.objectContaining({ location: 'body', path: expect.any(String), message: expect.any(String) }));
    }
    expect(countTasks()).toBe(before);
  });

  it('returns the same task for a retried Idempotency-Key, 409 for a reused one', async () => {
    const key = `key-${Date.now()}`;
    const queuedBefore = s.scheduler.queued.length;
    const first = await s.postJson('/agents/echo/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    const again = await s.postJson('/agents/echo/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect((again.json as Task).task_id).toBe((first.json as Task).task_id);
    expect(s.scheduler.queued.length - queuedBefore).toBe(1);

    const reused = await s.postJson('/agents/echo/tasks', { input: { message: 'different' } }, { 'idempotency-key': key });
    expect(reused.status).toBe(409);
    expect(errorOf(reused).code).toBe('IDEMPOTENCY_KEY_REUSED');

    // The same key on another agent is a different key.
    const elsewhere = await s.postJson('/agents/other/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    expect(elsewhere.status).toBe(202);
    expect((elsewhere.json as Task).task_id).not.toBe((first.json as Task).task_id);
  });

  it('refuses a malformed Idempotency-Key with 400', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'é']) {
      const res = await s.postJson('/agents/echo/tasks', { input: { message: 'x' } }, { 'idempotency-key': key });
      expect(res.status, key).toBe(400);
      expect(errorOf(res).code).toBe('BAD_REQUEST');
    }
    const longest = await s.postJson('/agents/echo/tasks', { input: { message: 'x' } }, { 'idempotency-key': '~'.repeat(255) });
    expect(longest.status).toBe(202);
  });

  it('refuses new tasks for a disabled agent (503) and while shutting down (503), but still serves tasks', async () => {
    const disabled = await s.postJson('/agents/off/tasks', { input: { message: 'x' } });
    expect(disabled.status).toBe(503);
    expect(errorOf(disabled).code).toBe('AGENT_DISABLED');

    const existing = s.taskIn('echo', 'WORKING');
    s.shuttingDown.value = true;
    try {
      const res = await s.postJson('/agents/echo/tasks', { input: { message: 'x' } });
      expect(res.status).toBe(503);
      expect(errorOf(res).code).toBe('SHUTTING_DOWN');
      expect((await s.raw(`/agents/echo/tasks/${existing.task_id}`)).status).toBe(200);
    } finally {
      s.shuttingDown.value = false;
    }
  });

  it('still serves the existing tasks of a disabled agent', async () => {
    const task = s.taskIn('off', 'INPUT_REQUIRED');
    const got = await s.raw(`/agents/off/tasks/${task.task_id}`);
    expect(got.status).toBe(200);
    expect((got.json as Task).status).toBe('INPUT_REQUIRED');
    const answered = await s.postJson(`/agents/off/tasks/${task.task_id}/input`, { input: { colour: 'red' } });
    expect(answered.status).toBe(200);
    const cancelled = await s.raw(`/agents/off/tasks/${task.task_id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect((await s.raw(`/agents/off/tasks/${task.task_id}/artifacts`)).status).toBe(200);
  });
});

describe('GET {base}/tasks/{id}', () => {
  it('returns the task as stored, output and error included', async () => {
    for (const status of ['SUBMITTED', 'WORKING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const) {
      const task = s.taskIn('echo', status);
      const res = await s.raw(`/agents/echo/tasks/${task.task_id}`);
      expect(res.status, status).toBe(200);
      expect(res.json).toEqual(s.store.getTask('echo', task.task_id));
    }
    const completed = s.taskIn('echo', 'COMPLETED');
    expect(((await s.raw(`/agents/echo/tasks/${completed.task_id}`)).json as Task).output).toEqual({ ok: true });
  });

  it('includes the prompt and its free-form schema while INPUT_REQUIRED', async () => {
    const schema = { type: 'object', properties: { colour: { enum: ['red', 'blue'] } }, required: ['colour'], additionalProperties: false };
    const task = s.taskIn('echo', 'INPUT_REQUIRED', schema);
    const res = await s.raw(`/agents/echo/tasks/${task.task_id}`);
    expect(res.json).toEqual(expect.objectContaining({ status: 'INPUT_REQUIRED', prompt: 'Which colour?', prompt_schema: schema }));
  });

  it('treats another agent\'s task, an unknown id and a malformed id alike: 404 TASK_NOT_FOUND', async () => {
    const other = s.taskIn('other', 'WORKING');
    for (const id of [other.task_id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', "'%3B%20DROP%20TABLE%20tasks", 'x'.repeat(3000)]) {
      for (const suffix of ['', '/artifacts']) {
        const res = await s.raw(`/agents/echo/tasks/${id}${suffix}`);
        expect(res.status, `${id.slice(0, 40)}${suffix}`).toBe(404);
        expect(errorOf(res).code).toBe('TASK_NOT_FOUND');
      }
      const cancel = await s.raw(`/agents/echo/tasks/${id}/cancel`, { method: 'POST' });
      expect(errorOf(cancel).code).toBe('TASK_NOT_FOUND');
      const answer = await s.postJson(`/agents/echo/tasks/${id}/input`, { input: {} });
      expect(errorOf(answer).code).toBe('TASK_NOT_FOUND');
    }
    expect(s.store.getTask('other', other.task_id)?.status).toBe('WORKING');
  });
});

describe('POST {base}/tasks/{id}/cancel', () => {
  it('cancels open tasks with an empty body, `{}`, or an empty JSON body, and tells the runtime once', async () => {
    const variants = [
      {},
      { headers: { 'content-type': 'application/json' }, body: '{}' },
      { headers: { 'content-type': 'application/json' }, body: '' },
      { headers: { 'content-type': 'application/json; charset=UTF-8' } },
    ];
    for (const [i, status] of (['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'SUBMITTED'] as const).entries()) {
      const task = s.taskIn('echo', status);
      const res = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST', ...variants[i] });
      expect(res.status, `${status} ${JSON.stringify(variants[i])}`).toBe(202);
      expect(res.json).toEqual(expect.objectContaining({ task_id: task.task_id, status: 'CANCELLED' }));
      expect(s.store.getTask('echo', task.task_id)?.status).toBe('CANCELLED');
      expect(s.scheduler.cancelled.filter((id) => id === task.task_id)).toHaveLength(1);
    }
  });

  it('answers a second cancel with 202 and the same CANCELLED task, without telling the runtime again', async () => {
    const task = s.taskIn('echo', 'WORKING');
    const first = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST' });
    const second = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST' });
    expect(second.status).toBe(202);
    expect(second.json).toEqual(first.json);
    expect(s.scheduler.cancelled.filter((id) => id === task.task_id)).toHaveLength(1);
  });

  it('refuses to cancel a finished task: 409 INVALID_STATE naming its status, task unchanged', async () => {
    for (const status of ['COMPLETED', 'FAILED'] as const) {
      const task = s.taskIn('echo', status);
      const res = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST' });
      expect(res.status).toBe(409);
      const error = errorOf(res);
      expect(error.code).toBe('INVALID_STATE');
      expect(error.message).toContain(status);
      expect(s.store.getTask('echo', task.task_id)).toEqual(task);
    }
  });

  it('refuses a cancel body with content, or that is not JSON', async () => {
    const task = s.taskIn('echo', 'WORKING');
    const withKeys = await s.postJson(`/agents/echo/tasks/${task.task_id}/cancel`, { reason: 'x' });
    expect(withKeys.status).toBe(400);
    expect(errorOf(withKeys).code).toBe('BAD_REQUEST');
    const text = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'please' });
    expect(text.status).toBe(415);
    const untyped = await s.raw(`/agents/echo/tasks/${task.task_id}/cancel`, { method: 'POST', body: '{}' });
    expect(untyped.status).toBe(415);
    expect(s.store.getTask('echo', task.task_id)?.status).toBe('WORKING');
  });
});

describe('POST {base}/tasks/{id}/input', () => {
  const schema = { type: 'object', properties: { colour: { enum: ['red', 'blue'] } }, required: ['colour'], additionalProperties: false };

  it('answers an INPUT_REQUIRED task: 200, WORKING, prompt cleared, runtime told', async () => {
    const task = s.taskIn('echo', 'INPUT_REQUIRED', schema);
    const res = await s.postJson(`/agents/echo/tasks/${task.task_id}/input`, { input: { colour: 'blue' } });
    expect(res.status).toBe(200);
    const after = res.json as Task;
    expect(after.status).toBe('WORKING');
    expect(after.prompt).toBeUndefined();
    expect(after.prompt_schema).toBeUndefined();
    expect(s.scheduler.answered).toContainEqual({ taskId: task.task_id, answer: { colour: 'blue' } });
  });

  it('refuses an answer that fails the prompt schema: 400 INVALID_ANSWER with details, still waiting', async () => {
    const task = s.taskIn('echo', 'INPUT_REQUIRED', schema);
    const res = await s.postJson(`/agents/echo/tasks/${task.task_id}/input`, { input: { colour: 'green' } });
    expect(res.status).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('INVALID_ANSWER');
    expect(error.details?.length).toBeGreaterThan(0);
    expect(s.store.getTask('echo', task.task_id)?.status).toBe('INPUT_REQUIRED');
  });

  it('refuses an answer unless the task is INPUT_REQUIRED: 409 INVALID_STATE', async () => {
    for (const status of ['SUBMITTED', 'WORKING', 'COMPLETED', 'CANCELLED'] as const) {
      const task = s.taskIn('echo', status);
      const res = await s.postJson(`/agents/echo/tasks/${task.task_id}/input`, { input: { colour: 'red' } });
      expect(res.status, status).toBe(409);
      const error = errorOf(res);
      expect(error.code).toBe('INVALID_STATE');
      expect(error.message).toContain(status);
    }
  });

  it('refuses a malformed answer body', async () => {
    const task = s.taskIn('echo', 'INPUT_REQUIRED');
    for (const body of [{}, { input: 'red' }, { input: {}, more: 1 }]) {
      const res = await s.postJson(`/agents/echo/tasks/${task.task_id}/input`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('BAD_REQUEST');
    }
    const noBody = await s.raw(`/agents/echo/tasks/${task.task_id}/input`, { method: 'POST' });
    expect(noBody.status).toBe(415);
    expect(errorOf(noBody).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(s.store.getTask('echo', task.task_id)?.status).toBe('INPUT_REQUIRED');
  });
});

describe('GET {base}/tasks/{id}/artifacts', () => {
  it('lists every artifact in the protocol shape; file content is the absolute content URL', async () => {
    const task = s.taskIn('echo', 'WORKING');
    const file = s.addFileArtifact(task.task_id, `${task.task_id}/report.csv`, 'a,b\n1,2\n', { filename: 'report.csv', mimeType: 'text/csv' });
    s.store.addArtifact({ taskId: task.task_id, type: 'text', content: 'some text', description: 'a note' });
    s.store.addArtifact({ taskId: task.task_id, type: 'json', content: '{"k":[1,2]}' });
    s.store.addArtifact({ taskId: task.task_id, type: 'url', content: 'https://example.com/x' });
    s.store.addArtifact({ taskId: task.task_id, type: 'log', content: 'line 1\nline 2' });

    const res = await s.raw(`/agents/echo/tasks/${task.task_id}/artifacts`, { headers: { host: `localhost:${s.port}` } });
    expect(res.status).toBe(200);
    const { artifacts } = res.json as { artifacts: Artifact[] };
    expect(artifacts.map((a) => a.type)).toEqual(['file', 'text', 'json', 'url', 'log']);
    expect(artifacts[0]).toEqual({
      artifact_id: file.artifact.artifact_id,
      task_id: task.task_id,
      type: 'file',
      content: `http://localhost:${s.port}/agents/echo/artifacts/${file.artifact.artifact_id}/content`,
      metadata: { created_at: expect.stringMatching(ISO), filename: 'report.csv', mime_type: 'text/csv', size: 8 },
    });
    expect(artifacts.slice(1).map((a) => a.content)).toEqual(['some text', '{"k":[1,2]}', 'https://example.com/x', 'line 1\nline 2']);
    expect(artifacts[1]!.metadata).toEqual({ created_at: expect.stringMatching(ISO), description: 'a note' });
    for (const artifact of artifacts) {
      expect(Object.keys(artifact).sort()).toEqual(['artifact_id', 'content', 'metadata', 'task_id', 'type']);
    }
  });

  it('returns an empty list for a task without artifacts', async () => {
    const task = s.taskIn('echo', 'SUBMITTED');
    const res = await s.raw(`/agents/echo/tasks/${task.task_id}/artifacts`);
    expect(res.json).toEqual({ artifacts: [] });
  });
});
