import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildFormModel,
  collectValues,
  errorsFromDetails,
  humanize,
  initialValues,
  parseJsonObject,
  rawFromJson,
  type Field,
  type RawObject,
} from '../../../renderer/src/lib/schema-form.js';

const schema = {
  type: 'object',
  required: ['name', 'count', 'level'],
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on the badge.', minLength: 2, maxLength: 5 },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', exclusiveMaximum: 1, multipleOf: 0.1 },
    level: { enum: ['low', 'high', 2] },
    enabled: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, minItems: 1, uniqueItems: true },
    email: { type: ['string', 'null'], format: 'email' },
    retry: {
      type: 'object',
      required: ['times'],
      properties: { times: { type: 'integer', minimum: 0 }, backoff: { type: 'string', enum: ['linear', 'exponential'] } },
    },
    payload: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
    choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  },
};

function formFields(s: unknown): Field[] {
  const model = buildFormModel(s);
  if (model.kind !== 'form') throw new Error(`expected a form, got JSON: ${model.reason}`);
  return model.fields;
}

function byKey(fields: Field[], key: string): Field {
  const field = fields.find((f) => f.key === key);
  if (!field) throw new Error(`no field ${key}`);
  return field;
}

describe('schema → form model', () => {
  const fields = formFields(schema);

  it('makes one field per property, of the right kind, with labels, descriptions and required markers', () => {
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['count', 'integer', true],
      ['ratio', 'number', false],
      ['level', 'enum', true],
      ['enabled', 'boolean', false],
      ['tags', 'array', false],
      ['email', 'string', false],
      ['retry', 'object', false],
      ['payload', 'json', false],
      ['choice', 'json', false],
    ]);
    expect(byKey(fields, 'name')).toMatchObject({ label: 'Your name', description: 'As on the badge.', minLength: 2, maxLength: 5 });
    expect(byKey(fields, 'count')).toMatchObject({ label: 'Count', minimum: 1, maximum: 10 });
    expect(byKey(fields, 'level')).toMatchObject({ options: ['low', 'high', 2] });
    expect(byKey(fields, 'tags')).toMatchObject({ item: { kind: 'string', pattern: '^[a-z]+$' }, minItems: 1, uniqueItems: true });
    expect(byKey(fields, 'email')).toMatchObject({ format: 'email' });
    const retry = byKey(fields, 'retry');
    expect(retry.kind === 'object' && retry.fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['times', 'integer', true],
      ['backoff', 'enum', false],
    ]);
    expect(byKey(fields, 'payload')).toMatchObject({ kind: 'json', jsonType: 'array' });
  });

  it('falls back to a JSON editor for roots it cannot express', () => {
    expect(buildFormModel({ type: 'object' })).toMatchObject({ kind: 'json', reason: 'The schema names no fields.' });
    expect(buildFormModel({ type: 'array', items: { type: 'string' } })).toMatchObject({ kind: 'json' });
    expect(buildFormModel({ oneOf: [{ type: 'object' }] })).toMatchObject({ kind: 'json' });
    expect(buildFormModel({ type: 'object', properties: { a: { type: 'string' } }, allOf: [{}] })).toMatchObject({
      kind: 'json',
      reason: 'The schema uses "allOf", which the form cannot show.',
    });
    expect(buildFormModel('not a schema')).toMatchObject({ kind: 'json' });
  });

  it("handles the echo agent's real input schema: plain fields, a nested object, and JSON for the artifact list", () => {
    const echo = JSON.parse(readFileSync(new URL('../../../main/plugins/echo/agent.json', import.meta.url), 'utf8')) as { input_schema: unknown };
    const echoFields = formFields(echo.input_schema);
    expect(Object.fromEntries(echoFields.map((f) => [f.key, f.kind]))).toEqual({
      message: 'string',
      log_lines: 'integer',
      delay_ms: 'integer',
      artifacts: 'json',
      ask: 'string',
      fail: 'object',
    });
  });

  it('humanizes keys', () => {
    expect(humanize('log_lines')).toBe('Log lines');
    expect(humanize('maxRetries')).toBe('Max retries');
    expect(humanize('dry-run')).toBe('Dry run');
  });
});

describe('form values → JSON, with validation', () => {
  const fields = formFields(schema);
  const valid = (): RawObject => ({
    ...initialValues(fields, schema),
    name: 'Ada',
    level: '1',
  });

  it('starts from the defaults and produces typed JSON, leaving empty optional fields out', () => {
    const raw = valid();
    expect(raw).toMatchObject({ count: '3', enabled: true, ratio: '', tags: [] });
    expect(collectValues(fields, raw)).toEqual({ ok: true, errors: {}, value: { name: 'Ada', count: 3, level: 'high', enabled: true } });
  });

  it('reports every wrong field with a clear message', () => {
    const raw: RawObject = {
      ...valid(),
      name: 'A',
      count: '2.5',
      ratio: '1',
      level: '',
      tags: ['ok', 'Not OK', ''],
      email: 'nope',
    };
    const result = collectValues(fields, raw);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual({
      name: 'At least 2 characters',
      count: 'Enter a whole number',
      ratio: 'Must be less than 1',
      level: 'Choose one',
      'tags.1': 'Must match the pattern ^[a-z]+$',
      'tags.2': 'Fill in or remove this item',
      email: 'Enter an email address, like ada@example.com',
    });
  });

  it('checks limits, lists and numbers', () => {
    const check = (patch: RawObject): Record<string, string> => collectValues(fields, { ...valid(), ...patch }).errors;
    expect(check({ name: 'Adalovelace' })).toEqual({ name: 'At most 5 characters (now 11)' });
    expect(check({ name: '' })).toEqual({ name: 'Required' });
    expect(check({ count: '0' })).toEqual({ count: 'Must be at least 1' });
    expect(check({ count: '11' })).toEqual({ count: 'Must be at most 10' });
    expect(check({ count: 'x' })).toEqual({ count: 'Enter a number' });
    expect(check({ ratio: '0.3' })).toEqual({});
    expect(check({ ratio: '0.25' })).toEqual({ ratio: 'Must be a multiple of 0.1' });
    expect(check({ tags: ['a', 'a'] })).toEqual({ tags: 'Each item must be different' });
  });

  it('leaves an optional group out while it is blank, and requires its members once it is used', () => {
    expect(collectValues(fields, { ...valid(), retry: { times: '', backoff: '' } }).value).not.toHaveProperty('retry');
    expect(collectValues(fields, { ...valid(), retry: { times: '', backoff: '0' } }).errors).toEqual({ 'retry.times': 'Required' });
    expect(collectValues(fields, { ...valid(), retry: { times: '2', backoff: '1' } }).value.retry).toEqual({ times: 2, backoff: 'exponential' });
  });

  it('parses JSON fields and checks their type', () => {
    expect(collectValues(fields, { ...valid(), payload: '[{"a": "x"}]' }).value.payload).toEqual([{ a: 'x' }]);
    expect(collectValues(fields, { ...valid(), payload: '{"a": 1}' }).errors).toEqual({ payload: 'Must be an array (JSON array)' });
    expect(collectValues(fields, { ...valid(), payload: '[1,' }).errors.payload).toMatch(/^Not valid JSON: /);
    expect(collectValues(fields, { ...valid(), choice: '42' }).value.choice).toBe(42);
  });

  it('round-trips a JSON value through the form (a failed answer restored into its form)', () => {
    const value = { name: 'Bob', count: 7, level: 2, enabled: false, tags: ['x', 'y'], retry: { times: 1 }, payload: [] };
    const raw = rawFromJson(fields, value);
    expect(collectValues(fields, raw)).toEqual({ ok: true, errors: {}, value });
    expect(collectValues(fields, initialValues(fields, schema, value)).value).toEqual(value);
  });

  it('validates a whole JSON editor as an object', () => {
    expect(parseJsonObject('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObject('[1]')).toEqual({ ok: false, message: 'Must be a JSON object: { … }' });
    expect(parseJsonObject('  ')).toMatchObject({ ok: false });
    expect(parseJsonObject('{oops')).toMatchObject({ ok: false, message: expect.stringMatching(/^Not valid JSON/) });
  });
});

describe("the server's validation details → field errors", () => {
  it('maps Ajv paths and puts `required` on the missing property', () => {
    expect(
      errorsFromDetails([
        { path: '/count', message: 'must be <= 10', keyword: 'maximum', params: { limit: 10 } },
        { path: '', message: "must have required property 'name'", keyword: 'required', params: { missingProperty: 'name' } },
        { path: '/retry', message: "must have required property 'times'", keyword: 'required', params: { missingProperty: 'times' } },
        { path: '/tags/1', message: 'must match pattern', keyword: 'pattern' },
        { path: '', message: 'must NOT have additional properties', keyword: 'additionalProperties' },
        'not an object',
      ]),
    ).toEqual({
      count: 'Must be <= 10',
      name: 'Required',
      'retry.times': 'Required',
      'tags.1': 'Must match pattern',
      '': 'Must NOT have additional properties',
    });
  });
});
