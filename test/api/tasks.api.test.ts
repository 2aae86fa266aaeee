import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard, AgentListing, Artifact, ErrorBody, Task } from '../../build/main/shared/protocol.js';
import { validateAgentCard } from '../../build/main/core/agents/agent-card.js';
import { ISO_TIMESTAMP, startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ config: { runtime: { cancel_grace_ms: 500 } } });
});
afterAll(async () => {
  await t.cleanup();
});

const createEcho = async (input: Record<string, unknown>, headers?: Record<string, string>) =>
  t.request<Task>('POST', '/agents/echo/tasks', { input }, headers);

function expectWellFormed(task: Task): void {
  expect(task.task_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(task.created_at).toMatch(ISO_TIMESTAMP);
  expect(task.updated_at).toMatch(ISO_TIMESTAMP);
  expect(task.updated_at >= task.created_at).toBe(true);
  if (task.status === 'FAILED') expect(task.error).toEqual({ code: expect.any(String), message: expect.any(String) });
  if (task.status === 'COMPLETED') expect(task.output).toEqual(expect.any(Object));
  if (task.status === 'INPUT_REQUIRED') expect(task.prompt).toEqual(expect.any(String));
}

describe('agents and cards', () => {
  it('lists the enabled agents with absolute URLs', async () => {
    const res = await t.request<{ agents: AgentListing[] }>('GET', '/agents');
    expect(res.status).toBe(200);
    const echo = res.body.agents.find((a) => a.slug === 'echo');
    expect(echo).toEqual({
      slug: 'echo',
      agent_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      display_name: expect.any(String),
      url: `${t.url}/agents/echo`,
      card_url: `${t.url}/agents/echo/agent-card.json`,
    });
    expect(res.body.agents.map((a) => a.slug)).toContain('python-script');
  });

  it('serves a card that validates against the protocol schema, at both card URLs', async () => {
    for (const slug of ['echo', 'python-script']) {
      const card = await t.request<AgentCard>('GET', `/agents/${slug}/agent-card.json`);
      expect(card.status).toBe(200);
      expect(validateAgentCard(card.body)).toBe(true);
      expect(card.body.protocol_version).toBe('1.0');
      const wellKnown = await t.request<AgentCard>('GET', `/agents/${slug}/.well-known/agent-card.json`);
      expect(wellKnown.body).toEqual(card.body);
    }
    const listing = await t.request<{ agents: AgentListing[] }>('GET', '/agents');
    const card = await t.request<AgentCard>('GET', '/agents/echo/agent-card.json');
    expect(card.body.agent_id).toBe(listing.body.agents.find((a) => a.slug === 'echo')!.agent_id);
  });

  it('gives the python-script agent the example card of the protocol', async () => {
    const card = (await t.request<AgentCard>('GET', '/agents/python-script/agent-card.json')).body;
    expect(card).toMatchObject({
      display_name: 'Python Script Generator',
      description: 'Generates a Python script based on a given topic and saves it as an artifact.',
      capabilities: ['code-generation', 'file-io'],
      input_schema: { required: ['topic', 'filename'] },
    });
  });
});

describe('task lifecycle', () => {
  it('creates a SUBMITTED task (202) that runs to COMPLETED with its output', async () => {
    const created = await createEcho({ message: 'hello' });
    expect(created.status).toBe(202);
    expect(created.body.status).toBe('SUBMITTED');
    expect(created.body.input).toEqual({ message: 'hello' });
    expectWellFormed(created.body);
    await t.waitForStatus(created.body.task_id, 'COMPLETED');
    const got = await t.request<Task>('GET', `/agents/echo/tasks/${created.body.task_id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ status: 'COMPLETED', output: { message: 'hello' }, agent_id: created.body.agent_id });
    expectWellFormed(got.body);
    const statuses = t.host.store.listEvents(created.body.task_id).filter((e) => e.kind === 'status').map((e) => (e.data as Task).status);
    expect(statuses).toEqual(['SUBMITTED', 'WORKING', 'COMPLETED']);
  });

  it('refuses input that breaks the input_schema with 400 and the details, storing nothing', async () => {
    const before = t.host.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number };
    for (const input of [{}, { message: 5 }, { message: 'x', extra: true }, { message: 'x', log_lines: 10001 }, { message: 'x', delay_ms: -1 }]) {
      const res = await t.request<ErrorBody>('POST', '/agents/echo/tasks', { input });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.message).toEqual(expect.any(String));
      expect(res.body.error.details?.length).toBeGreaterThan(0);
    }
    const after = t.host.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number };
    expect(after.n).toBe(before.n);
  });

  it('fails with the agent-given error code and message', async () => {
    const created = await createEcho({ message: 'x', fail: { code: 'QUOTA_EXCEEDED', message: 'no more quota' } });
    const task = await t.waitForStatus(created.body.task_id, 'FAILED');
    expect(task.error).toEqual({ code: 'QUOTA_EXCEEDED', message: 'no more quota' });
    expectWellFormed((await t.request<Task>('GET', `/agents/echo/tasks/${task.task_id}`)).body);
  });

  it('asks for input, takes the answer over the API and completes with it', async () => {
    const created = await createEcho({ message: 'm', ask: 'What is your name?' });
    const waiting = await t.waitForStatus(created.body.task_id, 'INPUT_REQUIRED');
    expect(waiting.prompt).toBe('What is your name?');
    const polled = await t.request<Task>('GET', `/agents/echo/tasks/${created.body.task_id}`);
    expect(polled.body).toMatchObject({ status: 'INPUT_REQUIRED', prompt: 'What is your name?' });

    const answered = await t.request<Task>('POST', `/agents/echo/tasks/${created.body.task_id}/input`, { input: { name: 'Ada' } });
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('WORKING');
    expect(answered.body.prompt).toBeUndefined();
    const done = await t.waitForStatus(created.body.task_id, 'COMPLETED');
    expect(done.output).toEqual({ message: 'm', answer: { name: 'Ada' } });

    const again = await t.request<ErrorBody>('POST', `/agents/echo/tasks/${created.body.task_id}/input`, { input: { name: 'Bob' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect(again.body.error.message).toContain('COMPLETED');
  });

  it('answers 409 to an answer for a task that is not waiting for one', async () => {
    const created = await createEcho({ message: 'x', delay_ms: 60_000 });
    await t.waitForStatus(created.body.task_id, 'WORKING');
    const res = await t.request<ErrorBody>('POST', `/agents/echo/tasks/${created.body.task_id}/input`, { input: {} });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('WORKING');
    await t.request('POST', `/agents/echo/tasks/${created.body.task_id}/cancel`);
  });

  it('hides a task from another agent (404)', async () => {
    const created = await createEcho({ message: 'x' });
    for (const path of ['', '/artifacts']) {
      const res = await t.request<ErrorBody>('GET', `/agents/python-script/tasks/${created.body.task_id}${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('TASK_NOT_FOUND');
    }
    const cancel = await t.request<ErrorBody>('POST', `/agents/python-script/tasks/${created.body.task_id}/cancel`);
    expect(cancel.status).toBe(404);
  });

  it('returns the same task for a retried create with the same Idempotency-Key', async () => {
    const key = `key-${Date.now()}`;
    const first = await createEcho({ message: 'once' }, { 'Idempotency-Key': key });
    const retry = await createEcho({ message: 'once' }, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.body.task_id).toBe(first.body.task_id);
    const reused = await createEcho({ message: 'different' }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(409);
    expect((reused.body as unknown as ErrorBody).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const count = t.host.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE idempotency_key = ?').get(key) as { n: number };
    expect(count.n).toBe(1);
  });

  it('stores a per-task notification_config and refuses a malformed one', async () => {
    const ok = await t.request<Task>('POST', '/agents/echo/tasks', {
      input: { message: 'x' },
      notification_config: { endpoint_url: 'http://127.0.0.1:9/hook', auth_header: 'Authorization: Bearer abc' },
    });
    expect(ok.status).toBe(202);
    expect(t.host.store.getRecord(ok.body.task_id)?.notificationConfig).toEqual({ endpoint_url: 'http://127.0.0.1:9/hook', auth_header: 'Authorization: Bearer abc' });
    const bad = await t.request<ErrorBody>('POST', '/agents/echo/tasks', { input: { message: 'x' }, notification_config: { endpoint_url: 'not a url' } });
    expect(bad.status).toBe(400);
    const extra = await t.request<ErrorBody>('POST', '/agents/echo/tasks', { input: { message: 'x' }, surprise: 1 });
    expect(extra.status).toBe(400);
  });
});

describe('cancel', () => {
  it('cancels a WORKING task at once (202), fires its signal, and is idempotent', async () => {
    const created = await createEcho({ message: 'x', delay_ms: 60_000 });
    await t.waitForStatus(created.body.task_id, 'WORKING');
    const cancel = await t.request<Task>('POST', `/agents/echo/tasks/${created.body.task_id}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('CANCELLED');
    expectWellFormed(cancel.body);
    const again = await t.request<Task>('POST', `/agents/echo/tasks/${created.body.task_id}/cancel`);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(cancel.body);
    // echo honours the signal, so its worker goes away well before the grace period ends.
    await expect.poll(() => t.host.runtime.workerPid(created.body.task_id), { timeout: 10_000 }).toBeUndefined();
    expect((await t.request<Task>('GET', `/agents/echo/tasks/${created.body.task_id}`)).body.status).toBe('CANCELLED');
  });

  it('cancels a task waiting for input', async () => {
    const created = await createEcho({ message: 'x', ask: 'Continue?' });
    await t.waitForStatus(created.body.task_id, 'INPUT_REQUIRED');
    const cancel = await t.request<Task>('POST', `/agents/echo/tasks/${created.body.task_id}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('CANCELLED');
    expect(cancel.body.prompt).toBeUndefined();
  });

  it('answers 409 with the status for a COMPLETED or FAILED task, leaving it unchanged', async () => {
    const done = await createEcho({ message: 'x' });
    const completed = await t.waitForStatus(done.body.task_id, 'COMPLETED');
    const res = await t.request<ErrorBody>('POST', `/agents/echo/tasks/${done.body.task_id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: 'INVALID_STATE', message: expect.stringContaining('COMPLETED') });
    expect((await t.request<Task>('GET', `/agents/echo/tasks/${done.body.task_id}`)).body).toEqual(completed);

    const failed = await createEcho({ message: 'x', fail: { code: 'E_X', message: 'boom' } });
    await t.waitForStatus(failed.body.task_id, 'FAILED');
    const res2 = await t.request<ErrorBody>('POST', `/agents/echo/tasks/${failed.body.task_id}/cancel`);
    expect(res2.status).toBe(409);
    expect(res2.body.error.message).toContain('FAILED');
  });

  it('settles every cancel-versus-completion race in exactly one terminal state that never changes', async () => {
    const tasks = await Promise.all(Array.from({ length: 24 }, (_, i) => createEcho({ message: `race ${i}`, delay_ms: 40 + (i % 6) * 5 })));
    await Promise.all(tasks.map((c) => t.waitForStatus(c.body.task_id, 'WORKING').catch(() => undefined)));
    const cancels = await Promise.all(
      tasks.map(async (c, i) => {
        await new Promise((r) => setTimeout(r, 30 + (i % 8) * 4));
        return t.request<Task | ErrorBody>('POST', `/agents/echo/tasks/${c.body.task_id}/cancel`);
      }),
    );
    const finals = await Promise.all(tasks.map((c) => t.waitForTask(c.body.task_id, (task) => ['COMPLETED', 'CANCELLED', 'FAILED'].includes(task.status))));
    await new Promise((r) => setTimeout(r, 300)); // let any late worker result arrive
    for (const [i, c] of tasks.entries()) {
      const cancel = cancels[i]!;
      const now = (await t.request<Task>('GET', `/agents/echo/tasks/${c.body.task_id}`)).body;
      expect(now).toEqual(finals[i]);
      if (cancel.status === 202) expect(now.status).toBe('CANCELLED');
      else {
        expect(cancel.status).toBe(409);
        expect(now.status).toBe('COMPLETED');
      }
      const terminal = t.host.store
        .listEvents(c.body.task_id)
        .filter((e) => e.kind === 'status' && ['COMPLETED', 'CANCELLED', 'FAILED'].includes((e.data as Task).status));
      expect(terminal).toHaveLength(1);
    }
  });
});

describe('artifacts', () => {
  it('lists every artifact type per the protocol schema and serves each one', async () => {
    const created = await createEcho({
      message: 'x',
      artifacts: [
        { type: 'file', content: 'print("hi")\n', filename: 'hello.py', mime_type: 'text/x-python', description: 'a script' },
        { type: 'text', content: 'plain words' },
        { type: 'json', content: '{"a":1}' },
        { type: 'log', content: 'line 1\nline 2' },
        { type: 'url', content: 'https://example.com/report' },
      ],
    });
    await t.waitForStatus(created.body.task_id, 'COMPLETED');
    const res = await t.request<{ artifacts: Artifact[] }>('GET', `/agents/echo/tasks/${created.body.task_id}/artifacts`);
    expect(res.status).toBe(200);
    const list = res.body.artifacts;
    expect(list.map((a) => a.type)).toEqual(['file', 'text', 'json', 'log', 'url']);
    for (const artifact of list) {
      expect(artifact.artifact_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(artifact.task_id).toBe(created.body.task_id);
      expect(artifact.metadata.created_at).toMatch(ISO_TIMESTAMP);
    }
    const file = list[0]!;
    expect(file.content).toBe(`${t.url}/agents/echo/artifacts/${file.artifact_id}/content`);
    expect(file.metadata).toMatchObject({ filename: 'hello.py', mime_type: 'text/x-python', description: 'a script' });
    const body = await fetch(file.content);
    expect(body.status).toBe(200);
    expect(body.headers.get('content-type')).toContain('text/x-python');
    expect(body.headers.get('content-length')).toBe(String('print("hi")\n'.length));
    expect(await body.text()).toBe('print("hi")\n');

    expect(list[1]!.content).toBe('plain words');
    const text = await fetch(`${t.url}/agents/echo/artifacts/${list[1]!.artifact_id}/content`);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(await text.text()).toBe('plain words');
    const json = await fetch(`${t.url}/agents/echo/artifacts/${list[2]!.artifact_id}/content`);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(await json.json()).toEqual({ a: 1 });
  });

  it('runs the python-script agent end to end into a runnable script', async () => {
    const created = await t.request<Task>('POST', '/agents/python-script/tasks', {
      input: { topic: 'read a local CSV file and calculate the average of the age column', filename: 'data_processor.py' },
    });
    expect(created.status).toBe(202);
    const done = await t.waitForStatus(created.body.task_id, 'COMPLETED');
    const { artifacts } = (await t.request<{ artifacts: Artifact[] }>('GET', `/agents/python-script/tasks/${done.task_id}/artifacts`)).body;
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]!.metadata).toMatchObject({ filename: 'data_processor.py', mime_type: 'text/x-python' });
    expect(JSON.stringify(done.output)).toContain(artifacts[0]!.artifact_id);
    const script = await (await fetch(artifacts[0]!.content)).text();
    expect(script).toContain('def main');
    expect(script.toLowerCase()).toContain('csv');
  });

  it('keeps plugin-given file names inside the task folder', async () => {
    const created = await createEcho({
      message: 'x',
      artifacts: [
        { type: 'file', content: 'a', filename: '../../../../escape.txt' },
        { type: 'file', content: 'b', filename: '/etc/passwd' },
      ],
    });
    await t.waitForStatus(created.body.task_id, 'COMPLETED');
    const { artifacts } = (await t.request<{ artifacts: Artifact[] }>('GET', `/agents/echo/tasks/${created.body.task_id}/artifacts`)).body;
    expect(artifacts).toHaveLength(2);
    for (const a of artifacts) {
      const path = t.host.store.getArtifact(a.artifact_id)!.filePath!;
      expect(path.startsWith(`${created.body.task_id}/`)).toBe(true);
      expect(path).not.toContain('..');
    }
    expect(await (await fetch(artifacts[0]!.content)).text()).toBe('a');
  });
});

describe('concurrency', () => {
  it('runs at most the configured number of tasks of an agent at once, the rest in arrival order', async () => {
    const local = await startTestHost({ config: { agents: { echo: { concurrency: 1 } } } });
    try {
      const order: string[] = [];
      local.host.store.onEvent((e) => {
        if (e.kind === 'status' && (e.data as Task).status === 'WORKING') order.push(e.task_id);
      });
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await local.request<Task>('POST', '/agents/echo/tasks', { input: { message: `q${i}`, delay_ms: 100 } });
        ids.push(res.body.task_id);
      }
      let maxWorking = 0;
      const unsubscribe = local.host.store.onEvent(() => {
        const working = ids.filter((id) => local.host.store.getRecord(id)?.task.status === 'WORKING').length;
        maxWorking = Math.max(maxWorking, working);
      });
      await Promise.all(ids.map((id) => local.waitForStatus(id, 'COMPLETED')));
      unsubscribe();
      expect(maxWorking).toBe(1);
      expect(order).toEqual(ids);
    } finally {
      await local.cleanup();
    }
  });
});
