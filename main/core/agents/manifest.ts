import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { AgentManifest } from '../../shared/plugin-api.js';
import type { JsonObject } from '../../shared/protocol.js';
import { createSchemaCompiler, type SchemaCompiler } from './plugin-schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const MANIFEST_FILE = 'agent.json';

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

/** The manifest's own schema. Defaults are filled in, so a valid manifest always has them. */
const MANIFEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'display_name', 'description', 'capabilities', 'input_schema', 'version', 'entry'],
  properties: {
    slug: { type: 'string', pattern: SLUG_PATTERN },
    display_name: { type: 'string', pattern: '\\S' },
    // The AgentCard schema requires at least 10 characters; a shorter one could not be served.
    description: { type: 'string', minLength: 10 },
    capabilities: { type: 'array', items: { type: 'string' } },
    input_schema: { type: 'object', minProperties: 1 },
    output_schema: { type: 'object' },
    version: { type: 'string', minLength: 1 },
    entry: { type: 'string', minLength: 1 },
    concurrency: { type: 'integer', minimum: 1, maximum: 64, default: 1 },
    rerun_safe: { type: 'boolean', default: false },
    agent_id: { type: 'string', format: 'uuid' },
    timeout_ms: { type: 'integer', minimum: 1 },
    memory_limit_mb: { type: 'integer', minimum: 32, maximum: 16384 },
  },
} as const;

const validateShape: ValidateFunction<AgentManifest> = addFormats(
  new Ajv({ allErrors: true, useDefaults: true }),
).compile<AgentManifest>(MANIFEST_SCHEMA);

/** Clearer words than Ajv's for the checks a plugin author is most likely to trip over. */
const FRIENDLY: Record<string, string> = {
  '/slug:pattern':
    'slug must be 1-63 characters of lowercase letters, digits and hyphens, starting with a letter or digit (it is part of the agent URL)',
  '/display_name:pattern': 'display_name must not be empty',
  '/description:minLength': 'description must be at least 10 characters long (the AgentCard schema requires it)',
  '/input_schema:minProperties': 'input_schema must have at least one property',
  '/agent_id:format': 'agent_id must be a UUID',
};

/** A manifest that passed every check, with its schemas compiled. */
export interface ValidManifest {
  manifest: AgentManifest;
  /** Absolute path of the entry module. */
  entryPath: string;
  validateInput: ValidateFunction;
  validateOutput?: ValidateFunction;
}

export type ManifestResult =
  | { ok: true; value: ValidManifest }
  /** `slug` is set when the manifest named one, so an error can be shown against it. */
  | { ok: false; reason: string; slug?: string };

/**
 * Reads and checks `<pluginDir>/agent.json`. Never throws: every problem comes back as a reason
 * naming the file and the field. `compile` compiles the plugin's schemas (see plugin-schemas.ts).
 */
export async function readManifest(
  pluginDir: string,
  compile: SchemaCompiler = createSchemaCompiler(),
): Promise<ManifestResult> {
  const file = join(pluginDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { ok: false, reason: `${file}: cannot be read: ${(err as Error).message}` };
  }
  let data: unknown;
  try {
    // Editors on Windows like to save a byte-order mark, which JSON.parse rejects.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, reason: `${file}: malformed JSON: ${(err as Error).message}` };
  }
  const slug = slugOf(data);
  const fail = (problems: string[]): ManifestResult => ({
    ok: false,
    reason: `${file}: ${problems.join('; ')}`,
    ...(slug !== undefined ? { slug } : {}),
  });

  if (!validateShape(data)) return fail(describeErrors(validateShape.errors));
  const manifest = data;

  const problems: string[] = [];
  const validateInput = compileField(manifest.input_schema, 'input_schema', compile, problems);
  const validateOutput =
    manifest.output_schema !== undefined
      ? compileField(manifest.output_schema, 'output_schema', compile, problems)
      : undefined;
  const entry = await checkEntry(pluginDir, manifest.entry);
  if (typeof entry !== 'string') problems.push(entry.problem);
  if (problems.length > 0 || !validateInput || typeof entry !== 'string') return fail(problems);

  // One UUID, one spelling: the store and clients compare agent_ids as strings.
  if (manifest.agent_id !== undefined) manifest.agent_id = manifest.agent_id.toLowerCase();
  return {
    ok: true,
    value: { manifest, entryPath: entry, validateInput, ...(validateOutput ? { validateOutput } : {}) },
  };
}

function slugOf(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const slug = (data as JsonObject).slug;
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const friendly = FRIENDLY[`${e.instancePath}:${e.keyword}`];
    if (friendly) return friendly;
    if (e.keyword === 'required') return `missing required field "${String(e.params.missingProperty)}"`;
    if (e.keyword === 'additionalProperties') return `unknown field "${String(e.params.additionalProperty)}"`;
    if (e.instancePath === '') return `the manifest ${e.message ?? 'is invalid'} (expected a JSON object)`;
    return `${fieldName(e.instancePath)} ${e.message ?? 'is invalid'}`;
  });
}

/** `/capabilities/0` → `capabilities[0]`. */
function fieldName(instancePath: string): string {
  const [first, ...rest] = instancePath.slice(1).split('/');
  return `${first ?? ''}${rest.map((part) => `[${part}]`).join('')}`;
}

/** Compiles one of the manifest's schemas, or records why it is not usable. */
function compileField(
  schema: JsonObject,
  field: 'input_schema' | 'output_schema',
  compile: SchemaCompiler,
  problems: string[],
): ValidateFunction | undefined {
  // Task input and output are always JSON objects; a schema of another type could never pass.
  const type = schema.type;
  const types = Array.isArray(type) ? type : [type];
  if (type !== undefined && !types.includes('object')) {
    problems.push(`${field} must describe a JSON object (its "type" is ${JSON.stringify(type)})`);
    return undefined;
  }
  try {
    return compile(schema);
  } catch (err) {
    problems.push(`${field} is not a valid JSON Schema: ${(err as Error).message}`);
    return undefined;
  }
}

/** The entry's absolute path, if it is a file inside the plugin folder (symlinks resolved). */
async function checkEntry(pluginDir: string, entry: string): Promise<string | { problem: string }> {
  if (isAbsolute(entry)) return { problem: `entry must be a path relative to the plugin folder, not "${entry}"` };
  const entryPath = resolve(pluginDir, entry);
  if (!isInside(resolve(pluginDir), entryPath)) {
    return { problem: `entry "${entry}" must stay inside the plugin folder` };
  }
  try {
    if (!(await stat(entryPath)).isFile()) return { problem: `entry "${entry}" is not a file` };
    if (!isInside(await realpath(pluginDir), await realpath(entryPath))) {
      return { problem: `entry "${entry}" is a link to a file outside the plugin folder` };
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      problem:
        code === 'ENOENT'
          ? `entry "${entry}" does not exist (looked for ${entryPath})`
          : `entry "${entry}" cannot be read: ${(err as Error).message}`,
    };
  }
  return entryPath;
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}
