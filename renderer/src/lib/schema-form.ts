/**
 * JSON Schema → form model, and form values → JSON with validation. Pure (no DOM), so the same
 * logic drives the answer forms, the agents' "Try it" forms and the unit tests.
 *
 * The generator covers what people fill in by hand: an object whose properties are strings,
 * numbers, integers, booleans, enums, arrays of those, and nested objects of the same (a few
 * levels deep). A property it cannot express (array of objects, oneOf, $ref, …) becomes a JSON
 * field of its own; a root it cannot express makes the whole form a JSON editor. The server
 * validates against the full schema anyway: this is for fast, clear feedback, not the last word.
 */
import type { JsonObject } from '../../../main/shared/protocol.js';

export type Primitive = string | number | boolean | null;

/** What an input holds: text as typed (so "12a" can be shown as wrong), checkbox state, lists, groups. */
export type RawValue = string | boolean | RawValue[] | RawObject;
export interface RawObject {
  [key: string]: RawValue;
}

interface FieldBase {
  key: string;
  label: string;
  description?: string;
  required: boolean;
}
export interface StringField extends FieldBase {
  kind: 'string';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  multiline: boolean;
}
export interface NumberField extends FieldBase {
  kind: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}
export interface BooleanField extends FieldBase {
  kind: 'boolean';
}
/** A select; the raw value is the index of the chosen option as a string ('' = none). */
export interface EnumField extends FieldBase {
  kind: 'enum';
  options: Primitive[];
}
export type ItemField = StringField | NumberField | BooleanField | EnumField;
export interface ArrayField extends FieldBase {
  kind: 'array';
  item: ItemField;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
}
export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: Field[];
}
/** A property the generator cannot express: edited as JSON text. */
export interface JsonField extends FieldBase {
  kind: 'json';
  /** The JSON type the value must have, when the schema names exactly one. */
  jsonType?: JsonTypeName;
}
export type Field = StringField | NumberField | BooleanField | EnumField | ArrayField | ObjectField | JsonField;

export type JsonTypeName = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export type FormModel = { kind: 'form'; fields: Field[] } | { kind: 'json'; reason: string };

/** Error messages by field path: keys joined with '.', array items by index ("tags.2"). */
export type FieldErrors = Record<string, string>;

/** The JSON value (partial when there are errors: what was valid) and the errors, if any. */
export type CollectResult = { ok: true; value: JsonObject; errors: FieldErrors } | { ok: false; value: JsonObject; errors: FieldErrors };

/** Deeper objects are rare in hand-filled input and unreadable as nested boxes: JSON instead. */
const MAX_DEPTH = 3;
/** Keywords that make a schema more than a plain shape; such a (sub)schema is edited as JSON. */
const COMPLEX_KEYWORDS = ['oneOf', 'anyOf', 'allOf', 'not', 'if', '$ref', 'patternProperties', 'dependencies', 'dependentSchemas'];

export function buildFormModel(schema: unknown): FormModel {
  if (!isObject(schema)) return { kind: 'json', reason: 'The schema is not an object.' };
  const type = schemaType(schema);
  if (type !== 'object') return { kind: 'json', reason: 'The answer is not an object with fields.' };
  const complex = COMPLEX_KEYWORDS.find((k) => k in schema);
  if (complex) return { kind: 'json', reason: `The schema uses "${complex}", which the form cannot show.` };
  const properties = schema.properties;
  if (!isObject(properties) || Object.keys(properties).length === 0) {
    return { kind: 'json', reason: 'The schema names no fields.' };
  }
  return { kind: 'form', fields: objectFields(schema, 1) };
}

function objectFields(schema: JsonObject, depth: number): Field[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([key, sub]) => buildField(key, sub, required.has(key), depth));
}

function buildField(key: string, schema: unknown, required: boolean, depth: number): Field {
  const base = baseOf(key, schema, required);
  if (!isObject(schema)) return { ...base, kind: 'json' };
  const asJson = (): JsonField => {
    const jsonType = schemaType(schema);
    return jsonType ? { ...base, kind: 'json', jsonType } : { ...base, kind: 'json' };
  };
  if (COMPLEX_KEYWORDS.some((k) => k in schema)) return asJson();
  const primitive = primitiveField(base, schema);
  if (primitive) return primitive;
  const type = schemaType(schema);
  if (type === 'array') {
    const item = isObject(schema.items) && !COMPLEX_KEYWORDS.some((k) => k in (schema.items as JsonObject))
      ? primitiveField({ key: '', label: base.label, required: true }, schema.items)
      : undefined;
    if (!item) return asJson();
    const field: ArrayField = { ...base, kind: 'array', item, uniqueItems: schema.uniqueItems === true };
    if (typeof schema.minItems === 'number') field.minItems = schema.minItems;
    if (typeof schema.maxItems === 'number') field.maxItems = schema.maxItems;
    return field;
  }
  if (type === 'object' && depth < MAX_DEPTH && isObject(schema.properties) && Object.keys(schema.properties).length > 0) {
    return { ...base, kind: 'object', fields: objectFields(schema, depth + 1) };
  }
  return asJson();
}

function primitiveField(base: FieldBase, schema: JsonObject): ItemField | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isPrimitive)) {
    return { ...base, kind: 'enum', options: schema.enum };
  }
  if ('const' in schema && isPrimitive(schema.const)) return { ...base, kind: 'enum', options: [schema.const] };
  switch (schemaType(schema)) {
    case 'string': {
      const field: StringField = { ...base, kind: 'string', multiline: false };
      if (typeof schema.minLength === 'number') field.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') field.maxLength = schema.maxLength;
      if (typeof schema.pattern === 'string') field.pattern = schema.pattern;
      if (typeof schema.format === 'string') field.format = schema.format;
      // Long free text gets a text area: a declared long limit, or a name that says so.
      field.multiline = (field.maxLength ?? 0) > 200 || /(^|_)(text|content|body|code|script|markdown|notes?)$/i.test(base.key);
      return field;
    }
    case 'number':
    case 'integer': {
      const field: NumberField = { ...base, kind: schemaType(schema) === 'integer' ? 'integer' : 'number' };
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
        const v = schema[k];
        if (typeof v === 'number') field[k] = v;
      }
      return field;
    }
    case 'boolean':
      return { ...base, kind: 'boolean' };
    default:
      return undefined;
  }
}

function baseOf(key: string, schema: unknown, required: boolean): FieldBase {
  const base: FieldBase = { key, label: humanize(key), required };
  if (isObject(schema)) {
    if (typeof schema.title === 'string' && schema.title.trim()) base.label = schema.title.trim();
    if (typeof schema.description === 'string' && schema.description.trim()) base.description = schema.description.trim();
  }
  return base;
}

/** "log_lines" → "Log lines", "maxRetries" → "Max retries". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

/** The one non-null type a schema names (`type: ["string", "null"]` counts as string). */
function schemaType(schema: JsonObject): JsonTypeName | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t as JsonTypeName;
  if (Array.isArray(t)) {
    const nonNull = t.filter((x) => x !== 'null');
    if (nonNull.length === 1 && typeof nonNull[0] === 'string') return nonNull[0] as JsonTypeName;
  }
  if (t === undefined && isObject(schema.properties)) return 'object';
  return undefined;
}

// ---- initial values --------------------------------------------------------------------------

/**
 * The raw values a form starts with: the schema's defaults where it has them; overridden by
 * `from` (a JSON value given before, e.g. an answer to restore after a failed send).
 */
export function initialValues(fields: Field[], schema: unknown, from?: JsonObject): RawObject {
  const defaults = collectDefaults(schema);
  const merged: JsonObject = { ...defaults, ...(from ?? {}) };
  return rawFromJson(fields, merged);
}

function collectDefaults(schema: unknown): JsonObject {
  const out: JsonObject = {};
  if (!isObject(schema) || !isObject(schema.properties)) return out;
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (!isObject(sub)) continue;
    if ('default' in sub) out[key] = sub.default;
    else if (schemaType(sub) === 'object' && isObject(sub.properties)) {
      const nested = collectDefaults(sub);
      if (Object.keys(nested).length > 0) out[key] = nested;
    }
  }
  return out;
}

/** Raw form values for a JSON object (values that don't fit a field are left out). */
export function rawFromJson(fields: Field[], json: JsonObject): RawObject {
  const raw: RawObject = {};
  for (const field of fields) raw[field.key] = rawOf(field, json[field.key]);
  return raw;
}

function rawOf(field: Field, value: unknown): RawValue {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' ? value : '';
    case 'number':
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return value === true;
    case 'enum': {
      const index = field.options.findIndex((o) => o === value);
      return index >= 0 ? String(index) : '';
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => rawOf(field.item, v)) : [];
    case 'object':
      return rawFromJson(field.fields, isObject(value) ? value : {});
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
  }
}

/** A fresh item for an array field's "Add" button. */
export function emptyItem(item: ItemField): RawValue {
  return item.kind === 'boolean' ? false : '';
}

// ---- collecting and validating ----------------------------------------------------------------

/** The JSON value of a form, or the message for every field that is wrong. */
export function collectValues(fields: Field[], raw: RawObject): CollectResult {
  const errors: FieldErrors = {};
  const value = collectObject(fields, raw, '', errors);
  return Object.keys(errors).length > 0 ? { ok: false, value, errors } : { ok: true, value, errors };
}

function collectObject(fields: Field[], raw: RawObject, prefix: string, errors: FieldErrors): JsonObject {
  const out: JsonObject = {};
  for (const field of fields) {
    const path = prefix ? `${prefix}.${field.key}` : field.key;
    const result = collectField(field, raw[field.key], path, errors);
    if (result !== undefined) out[field.key] = result;
  }
  return out;
}

/** undefined = leave the key out (empty optional field, or an error was recorded). */
function collectField(field: Field, raw: RawValue | undefined, path: string, errors: FieldErrors): unknown {
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'enum':
      return collectPrimitive(field, raw, path, errors);
    case 'array':
      return collectArray(field, Array.isArray(raw) ? raw : [], path, errors);
    case 'object': {
      const obj = isRawObject(raw) ? raw : {};
      // An optional group left blank is simply absent; its required members only count once it is used.
      if (!field.required && isBlank(obj)) return undefined;
      return collectObject(field.fields, obj, path, errors);
    }
    case 'json':
      return collectJson(field, typeof raw === 'string' ? raw : '', path, errors);
  }
}

function collectPrimitive(field: ItemField, raw: RawValue | undefined, path: string, errors: FieldErrors): unknown {
  if (field.kind === 'boolean') return raw === true;
  const text = typeof raw === 'string' ? raw : '';
  if (field.kind === 'enum') {
    if (text === '') return missing(field, path, errors, 'Choose one');
    return field.options[Number(text)];
  }
  if (field.kind === 'string') {
    if (text === '') return missing(field, path, errors);
    const problem = stringProblem(field, text);
    return problem ? fail(errors, path, problem) : text;
  }
  if (text.trim() === '') return missing(field, path, errors);
  const n = Number(text.trim());
  if (!Number.isFinite(n)) return fail(errors, path, 'Enter a number');
  if (field.kind === 'integer' && !Number.isInteger(n)) return fail(errors, path, 'Enter a whole number');
  const problem = numberProblem(field, n);
  return problem ? fail(errors, path, problem) : n;
}

function missing(field: FieldBase, path: string, errors: FieldErrors, message = 'Required'): undefined {
  if (field.required) errors[path] = message;
  return undefined;
}

function fail(errors: FieldErrors, path: string, message: string): undefined {
  errors[path] = message;
  return undefined;
}

function stringProblem(field: StringField, text: string): string | undefined {
  // Length in code points, as JSON Schema counts it (an emoji is one character, not two).
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength) return `At least ${charCount(field.minLength)}`;
  if (field.maxLength !== undefined && length > field.maxLength) return `At most ${charCount(field.maxLength)} (now ${length})`;
  if (field.pattern !== undefined) {
    const re = compilePattern(field.pattern);
    if (re && !re.test(text)) return `Must match the pattern ${field.pattern}`;
  }
  switch (field.format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(text) ? undefined : 'Enter an email address, like ada@example.com';
    case 'uri':
    case 'url':
      return isAbsoluteUrl(text) ? undefined : 'Enter a full URL, like https://example.com/path';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'Enter a date as YYYY-MM-DD';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'Enter a date and time, like 2025-01-31T14:00:00Z';
    default:
      return undefined;
  }
}

function numberProblem(field: NumberField, n: number): string | undefined {
  if (field.minimum !== undefined && n < field.minimum) return `Must be at least ${field.minimum}`;
  if (field.maximum !== undefined && n > field.maximum) return `Must be at most ${field.maximum}`;
  if (field.exclusiveMinimum !== undefined && n <= field.exclusiveMinimum) return `Must be more than ${field.exclusiveMinimum}`;
  if (field.exclusiveMaximum !== undefined && n >= field.exclusiveMaximum) return `Must be less than ${field.exclusiveMaximum}`;
  if (field.multipleOf !== undefined && field.multipleOf > 0) {
    const q = n / field.multipleOf;
    // Tolerate float noise: 0.3 is a multiple of 0.1 even though 0.3 / 0.1 = 2.9999999999999996.
    if (Math.abs(q - Math.round(q)) > 1e-9) return `Must be a multiple of ${field.multipleOf}`;
  }
  return undefined;
}

function collectArray(field: ArrayField, items: RawValue[], path: string, errors: FieldErrors): unknown {
  if (items.length === 0 && !field.required) return undefined;
  const out: unknown[] = [];
  let itemError = false;
  items.forEach((raw, i) => {
    const itemPath = `${path}.${i}`;
    if (field.item.kind !== 'boolean' && isBlank(raw)) {
      // An empty row in the list is a mistake, not an omission.
      errors[itemPath] = field.item.kind === 'enum' ? 'Choose one or remove this item' : 'Fill in or remove this item';
      itemError = true;
      return;
    }
    const value = collectPrimitive(field.item, raw, itemPath, errors);
    if (value === undefined) itemError = true;
    else out.push(value);
  });
  if (itemError) return undefined;
  if (field.minItems !== undefined && out.length < field.minItems) return fail(errors, path, `Add at least ${itemCount(field.minItems)}`);
  if (field.maxItems !== undefined && out.length > field.maxItems) return fail(errors, path, `At most ${itemCount(field.maxItems)}`);
  if (field.uniqueItems && new Set(out.map((v) => JSON.stringify(v))).size !== out.length) {
    return fail(errors, path, 'Each item must be different');
  }
  return out;
}

function collectJson(field: JsonField, text: string, path: string, errors: FieldErrors): unknown {
  if (text.trim() === '') return missing(field, path, errors);
  const parsed = parseJson(text);
  if (!parsed.ok) return fail(errors, path, parsed.message);
  if (field.jsonType && jsonTypeOf(parsed.value) !== field.jsonType && !(field.jsonType === 'number' && jsonTypeOf(parsed.value) === 'integer')) {
    return fail(errors, path, `Must be ${article(field.jsonType)} (JSON ${field.jsonType})`);
  }
  return parsed.value;
}

/** Parses a whole JSON editor's text: the value must be an object (the input or answer). */
export function parseJsonObject(text: string): { ok: true; value: JsonObject } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'Enter a JSON object, like {"name": "Ada"}' };
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  if (!isObject(parsed.value)) return { ok: false, message: 'Must be a JSON object: { … }' };
  return { ok: true, value: parsed.value };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${(err as Error).message}` };
  }
}

function jsonTypeOf(value: unknown): JsonTypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonTypeName;
}

// ---- server validation errors -----------------------------------------------------------------

export interface ValidationDetail {
  path?: string;
  message?: string;
  keyword?: string;
  params?: unknown;
}

/**
 * Maps the server's validation details (Ajv-style: `path` "/a/0/b", `keyword`, `params`) onto
 * form paths, so an INVALID_INPUT answer marks the fields it is about. A `required` error is put
 * on the missing property itself. Errors at the root are returned under the key ''.
 */
export function errorsFromDetails(details: readonly unknown[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const d of details) {
    if (!isObject(d)) continue;
    const detail = d as ValidationDetail;
    let path = (typeof detail.path === 'string' ? detail.path : '')
      .split('/')
      .filter((s) => s !== '')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    const params = isObject(detail.params) ? detail.params : {};
    if (detail.keyword === 'required' && typeof params.missingProperty === 'string') {
      path = path ? `${path}.${params.missingProperty}` : params.missingProperty;
      errors[path] ??= 'Required';
      continue;
    }
    const message = typeof detail.message === 'string' ? capitalize(detail.message) : 'Not accepted';
    errors[path] ??= message;
  }
  return errors;
}

// ---- helpers ----------------------------------------------------------------------------------

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRawObject(value: RawValue | undefined): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** True when nothing was entered: empty texts, empty lists, unticked boxes, blank groups. */
export function isBlank(raw: RawValue): boolean {
  if (typeof raw === 'string') return raw.trim() === '';
  if (typeof raw === 'boolean') return raw === false;
  if (Array.isArray(raw)) return raw.length === 0;
  return Object.values(raw).every(isBlank);
}

function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // A pattern JavaScript can't compile: leave the check to the server.
    return undefined;
  }
}

function isAbsoluteUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol.length > 1 && (url.host !== '' || url.protocol === 'mailto:' || url.protocol === 'urn:');
  } catch {
    return false;
  }
}

function charCount(n: number): string {
  return n === 1 ? '1 character' : `${n} characters`;
}

function itemCount(n: number): string {
  return n === 1 ? '1 item' : `${n} items`;
}

function article(type: JsonTypeName): string {
  return type === 'object' || type === 'array' || type === 'integer' ? `an ${type}` : `a ${type}`;
}

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** Placeholder text for a field's input: its limits, so people know them before they type. */
export function fieldHint(field: Field): string | undefined {
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const lo = field.minimum ?? field.exclusiveMinimum;
      const hi = field.maximum ?? field.exclusiveMaximum;
      const what = field.kind === 'integer' ? 'Whole number' : 'Number';
      if (lo !== undefined && hi !== undefined) return `${what}, ${lo}–${hi}`;
      if (lo !== undefined) return `${what}, at least ${lo}`;
      if (hi !== undefined) return `${what}, at most ${hi}`;
      return what;
    }
    case 'string':
      if (field.format === 'email') return 'name@example.com';
      if (field.format === 'uri' || field.format === 'url') return 'https://…';
      if (field.format === 'date') return 'YYYY-MM-DD';
      if (field.format === 'date-time') return '2025-01-31T14:00:00Z';
      return undefined;
    case 'json':
      return field.jsonType === 'array' ? '[ … ]' : field.jsonType === 'object' ? '{ … }' : 'JSON';
    default:
      return undefined;
  }
}
