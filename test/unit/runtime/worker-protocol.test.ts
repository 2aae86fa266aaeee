import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  isPlainObject,
  parseHostMessage,
  parseWorkerMessage,
  truncate,
} from '../../../build/main/core/runtime/worker-protocol.js';

const TASK_ID = '123e4567-e89b-12d3-a456-426614174000';

function rejected(raw: unknown): string {
  const parsed = parseWorkerMessage(raw);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
  return parsed.reason;
}

describe('parseWorkerMessage', () => {
  it('accepts every well-formed message', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'logs', entries: [{ level: 'INFO', message: 'hi', timestamp: '2024-01-01T00:00:00.000Z' }] },
      { type: 'artifact', requestId: 1, artifact: { type: 'file', file: 'a.txt', mimeType: 'text/plain', description: 'd' } },
      { type: 'artifact', requestId: 2, artifact: { type: 'json', content: '{}' } },
      { type: 'request-input', requestId: 3, prompt: 'Name?', schema: { type: 'object' } },
      { type: 'result', output: { a: 1 } },
      { type: 'result', output: 'not an object: judged by the task worker, not here' },
      { type: 'failure', code: 'X_FAILED', message: 'm' },
      { type: 'start-failed', message: 'no entry' },
    ];
    for (const raw of good) expect(parseWorkerMessage(raw)).toMatchObject({ ok: true, message: { type: (raw as { type: string }).type } });
  });

  it.each([
    [null, /not an object/],
    ['ready', /not an object/],
    [[{ type: 'ready' }], /not an object/],
    [{}, /unknown message type/],
    [{ type: 'explode' }, /unknown message type "explode"/],
    [{ type: 'logs' }, /not an array/],
    [{ type: 'logs', entries: [{ level: 'LOUD', message: 'x' }] }, /log level/],
    [{ type: 'logs', entries: [{ level: 'INFO', message: 42 }] }, /not a string/],
    [{ type: 'logs', entries: ['line'] }, /not an object/],
    [{ type: 'artifact', requestId: -1, artifact: { type: 'text', content: '' } }, /request id/],
    [{ type: 'artifact', requestId: 1.5, artifact: { type: 'text', content: '' } }, /request id/],
    [{ type: 'artifact', requestId: 1, artifact: { type: 'binary', content: '' } }, /unknown/],
    [{ type: 'artifact', requestId: 1, artifact: { type: 'text', content: 5 } }, /not a string/],
    [{ type: 'artifact', requestId: 1, artifact: { type: 'file' } }, /no file name/],
    [{ type: 'artifact', requestId: 1, artifact: { type: 'file', file: 'a', mimeType: 7 } }, /mimeType/],
    [{ type: 'artifact', requestId: 1, artifact: { type: 'text', content: '', description: {} } }, /description/],
    [{ type: 'request-input', requestId: 1, prompt: '' }, /non-empty/],
    [{ type: 'request-input', requestId: 1, prompt: 'x'.repeat(LIMITS.promptChars + 1) }, /too long/],
    [{ type: 'request-input', requestId: 1, prompt: 'q', schema: [] }, /schema is not an object/],
    [{ type: 'request-input', requestId: 1, prompt: 'q', schema: { description: 'x'.repeat(LIMITS.promptSchemaChars) } }, /too large/],
    [{ type: 'failure', code: 1, message: 'm' }, /failure.code/],
    [{ type: 'failure', code: 'X'.repeat(100), message: 'm' }, /failure.code/],
    [{ type: 'failure', code: 'X_Y' }, /failure.message/],
    [{ type: 'start-failed' }, /start-failed.message/],
  ])('refuses %j', (raw, reason) => {
    expect(rejected(raw)).toMatch(reason);
  });

  it('refuses a log batch with too many entries and inline content that is too large', () => {
    const entries = Array.from({ length: LIMITS.logBatchEntries + 1 }, () => ({ level: 'INFO', message: 'x' }));
    expect(rejected({ type: 'logs', entries })).toMatch(/at most/);
    const content = 'x'.repeat(LIMITS.inlineArtifactChars + 1);
    expect(rejected({ type: 'artifact', requestId: 1, artifact: { type: 'text', content } })).toMatch(/too large/);
  });

  it('cuts an over-long log message instead of refusing it, and drops a malformed timestamp', () => {
    const parsed = parseWorkerMessage({
      type: 'logs',
      entries: [{ level: 'WARN', message: 'y'.repeat(LIMITS.logMessageChars + 10), timestamp: 'yesterday' }],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.message.type !== 'logs') return;
    const [entry] = parsed.message.entries;
    expect(entry!.message.startsWith('y'.repeat(LIMITS.logMessageChars))).toBe(true);
    expect(entry!.message).toMatch(/\[10 more characters cut\]$/);
    expect(entry!.timestamp).toBeUndefined();
  });

  it('cuts an over-long failure message', () => {
    const parsed = parseWorkerMessage({ type: 'failure', code: 'E_BIG', message: 'm'.repeat(LIMITS.errorMessageChars * 2) });
    expect(parsed.ok && parsed.message.type === 'failure' && parsed.message.message.length).toBeLessThan(LIMITS.errorMessageChars + 100);
  });

  it('keeps only known fields', () => {
    const parsed = parseWorkerMessage({ type: 'artifact', requestId: 1, artifact: { type: 'text', content: 'c', extra: 'x' }, more: 1 });
    expect(parsed).toEqual({ ok: true, message: { type: 'artifact', requestId: 1, artifact: { type: 'text', content: 'c' } } });
  });
});

describe('parseHostMessage', () => {
  const start = {
    type: 'start',
    taskId: TASK_ID,
    input: { a: 1 },
    entryUrl: 'file:///plugins/x/index.js',
    artifactDir: '/data/artifacts/x',
    answers: [{ name: 'a' }],
  };

  it('accepts the host messages', () => {
    expect(parseHostMessage(start)).toEqual({ ok: true, message: start });
    expect(parseHostMessage({ type: 'abort', reason: 'timeout' })).toEqual({ ok: true, message: { type: 'abort', reason: 'timeout' } });
    expect(parseHostMessage({ type: 'answer', requestId: 4, answer: { x: 1 } }).ok).toBe(true);
    expect(parseHostMessage({ type: 'input-error', requestId: 4, message: 'bad schema' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'artifact-ack', requestId: 4, artifactId: 'id' }).ok).toBe(true);
    expect(parseHostMessage({ type: 'artifact-ack', requestId: 4, error: 'refused' }).ok).toBe(true);
  });

  it.each([
    [{ ...start, taskId: '../x' }],
    [{ ...start, input: [] }],
    [{ ...start, entryUrl: 'https://evil.example/x.js' }],
    [{ ...start, artifactDir: '' }],
    [{ ...start, answers: [1] }],
    [{ type: 'abort', reason: 'because' }],
    [{ type: 'answer', requestId: 1, answer: 'yes' }],
    [{ type: 'artifact-ack', requestId: 1 }],
    [{ type: 'input-error', requestId: 'one', message: 'x' }],
    [{ type: 'reboot' }],
  ])('refuses %j', (raw) => {
    expect(parseHostMessage(raw).ok).toBe(false);
  });
});

describe('helpers', () => {
  it('truncate never splits a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀tail`;
    const cut = truncate(text, 10);
    expect(cut.startsWith('a'.repeat(9))).toBe(true);
    expect(cut).not.toContain('\ud83d');
    expect(truncate('short', 10)).toBe('short');
  });

  it('isPlainObject accepts only plain objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const value of [null, [], 'x', 1, new Date(), new Map()]) expect(isPlainObject(value)).toBe(false);
  });
});
