import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonObject } from '../../shared/protocol.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * One Ajv (draft-07, the protocol's schema dialect) for plugin schemas: input_schema,
 * output_schema and prompt schemas. allErrors so a 400 lists every problem at once.
 */
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: true }));

/** Compiles a plugin-supplied schema; throws with Ajv's reason when the schema itself is invalid. */
export function compileSchema(schema: JsonObject): ValidateFunction {
  return ajv.compile(schema);
}

/** Why `schema` is not a valid JSON Schema, or undefined when it is. */
export function schemaProblem(schema: JsonObject): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
