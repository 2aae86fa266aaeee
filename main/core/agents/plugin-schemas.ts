import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonObject } from '../../shared/protocol.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Compiles one plugin schema, throwing Ajv's reason when the schema itself is invalid. */
export type SchemaCompiler = (schema: JsonObject) => ValidateFunction;

/**
 * A compiler for the input/output schemas of one plugin load, with the options of the shared
 * instance in schema-validation.ts (draft-07, allErrors, formats).
 *
 * Why not the shared instance: Ajv registers every compiled schema that has an `$id` and refuses a
 * second, different object with the same `$id`. Two plugins (or the same plugin loaded again after
 * a reload, or in a second test) may well use the same `$id`, and one would be reported broken
 * for no fault of its own. `addUsedSchema: false` stops the registration, so `$id`s never clash
 * and one plugin's schema can never `$ref` another plugin's; a schema's references to itself
 * still resolve. One instance per load (not per schema: a fresh Ajv costs ~15 ms) also lets the
 * compiled functions be garbage-collected with the agents of a load, where the shared instance's
 * cache would keep them for the life of the process.
 */
export function createSchemaCompiler(): SchemaCompiler {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: true, addUsedSchema: false }));
  return (schema) => ajv.compile(schema);
}
