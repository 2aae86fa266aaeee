/**
 * Unit tests of the echo plugin's run() with a FAKE AgentContext (a recording object, not the
 * host's worker). They pin the plugin's own behaviour and its schemas; the real path through a
 * worker process and the A2A server is tested elsewhere.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { readManifest } from '../../../build/main/core/agents/manifest.js';
import run from '../../../build/main/plugins/echo/index.js';
import type { AgentContext, ArtifactSpec } from '../../../build/main/shared/plugin-api.js';
import type { JsonObject } from '../../../build/main/shared/protocol.js';
import { BUILT_PLUGINS } from './support.js';

type Call = ['log', string, string] | ['artifact', ArtifactSpec] | ['prompt', string];

/** FAKE context: records what the plugin asks of the host and answers prompts with `answer`. */
function fakeContext(answer: JsonObject = { ok: true }) {
  const calls: Call[] = [];
  const controller = new AbortController();
  const ctx: AgentContext = {
    taskId: randomUUID(),
    signal: controller.signal,
    artifactDir: '/nonexistent/fake-context',
    log: (level, message) => void calls.push(['log', level, message]),
    createArtifact: async (spec) => {
      calls.push(['artifact', spec]);
      return { artifact_id: randomUUID(), type: spec.type };
    },
    requestInput: async (prompt) => {
      calls.push(['prompt', prompt]);
      return answer;
    },
  };
  return { ctx, calls, controller };
}

let validateInput: ValidateFunction;
let validateOutput: ValidateFunction;
beforeAll(async () => {
  const result = await readManifest(join(BUILT_PLUGINS, 'echo'));
  if (!result.ok) throw new Error(result.reason);
  validateInput = result.value.validateInput;
  validateOutput = result.value.validateOutput!;
});

async function runValid(input: JsonObject, ctx: AgentContext): Promise<JsonObject> {
  expect(validateInput(input), JSON.stringify(validateInput.errors)).toBe(true);
  const output = await run(input, ctx);
  expect(validateOutput(output), JSON.stringify(validateOutput.errors)).toBe(true);
  return output;
}

describe('echo plugin (fake context)', () => {
  it('returns the message and nothing else by default', async () => {
    const { ctx, calls } = fakeContext();
    expect(await runValid({ message: 'hello' }, ctx)).toEqual({ message: 'hello' });
    expect(calls).toEqual([]);
  });

  it('logs, waits, creates artifacts, then asks, in that order, and returns the answer', async () => {
    const { ctx, calls } = fakeContext({ colour: 'green' });
    const artifacts = [
      { type: 'file', content: 'a,b\n1,2\n', filename: 'data.csv', mime_type: 'text/csv', description: 'numbers' },
      { type: 'json', content: '{"n":1}' },
    ];
    const started = Date.now();
    const output = await runValid({ message: 'm', log_lines: 3, delay_ms: 100, artifacts, ask: 'Which colour?' }, ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(output).toEqual({ message: 'm', answer: { colour: 'green' } });
    expect(calls).toEqual([
      ['log', 'INFO', 'echo log line 1 of 3'],
      ['log', 'INFO', 'echo log line 2 of 3'],
      ['log', 'INFO', 'echo log line 3 of 3'],
      ['artifact', artifacts[0]],
      ['artifact', { type: 'json', content: '{"n":1}' }],
      ['prompt', 'Which colour?'],
    ]);
  });

  it('fails with the requested code and message after the earlier steps', async () => {
    const { ctx, calls } = fakeContext();
    const input = { message: 'm', log_lines: 1, artifacts: [{ type: 'text', content: 't' }], fail: { code: 'NOPE', message: 'asked to fail' } };
    expect(validateInput(input)).toBe(true);
    await expect(run(input, ctx)).rejects.toMatchObject({ code: 'NOPE', message: 'asked to fail' });
    expect(calls.map((c) => c[0])).toEqual(['log', 'artifact']);
  });

  it('stops a long delay as soon as the task is cancelled, rejecting with the abort reason', async () => {
    const { ctx, calls, controller } = fakeContext();
    const reason = new Error('cancelled by the orchestrator');
    const started = Date.now();
    const pending = run({ message: 'm', delay_ms: 600_000, artifacts: [{ type: 'text', content: 'never' }] }, ctx);
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(calls).toEqual([]);
  });

  it('rejects at once when the task was already cancelled', async () => {
    const { ctx, controller } = fakeContext();
    controller.abort(new Error('gone'));
    await expect(run({ message: 'm', delay_ms: 10 }, ctx)).rejects.toThrow('gone');
  });

  it.each([
    ['no message', { log_lines: 1 }],
    ['an unknown switch', { message: 'm', sleep: 1 }],
    ['too many log lines', { message: 'm', log_lines: 10_001 }],
    ['a delay over ten minutes', { message: 'm', delay_ms: 600_001 }],
    ['a file artifact without filename', { message: 'm', artifacts: [{ type: 'file', content: 'x' }] }],
    ['an unknown artifact type', { message: 'm', artifacts: [{ type: 'blob', content: 'x' }] }],
    ['a failure without code', { message: 'm', fail: { message: 'x' } }],
  ])('input_schema refuses %s', (_name, input) => {
    expect(validateInput(input)).toBe(false);
  });
});
