import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonObject } from '../../shared/protocol.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * One Ajv (draft-07, the protocol's schema dialect) for plugin schemas: input_schema,
 * output_schema and prompt schemas. allErrors so a 400 lists every problem at once;
 * addUsedSchema off so two schemas with the same `$id` never clash.
 */
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false }));

/** Compiles a plugin-supplied schema; throws with Ajv's reason when the schema itself is invalid. */
export function compileSchema(schema: JsonObject): ValidateFunction {
  const validate = ajv.compile(schema);
  // Ajv keeps every compiled schema in a cache keyed by the schema object; callers keep the
  // function they need, so drop Ajv's copy and let memory follow the callers' own caches.
  ajv.removeSchema(schema);
  return validate;
}

/** Why `schema` is not a valid JSON Schema, or undefined when it is. */
export function schemaProblem(schema: JsonObject): string | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
