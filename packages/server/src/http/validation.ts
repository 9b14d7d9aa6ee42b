import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly: a string where a number belongs is an error, not coerced, and
 * unknown properties are reported rather than dropped. Path and query parameters arrive as text,
 * so they are coerced to the declared types.
 */
export function installValidation(app: FastifyInstance) {
  const strict = makeAjv(false);
  const coercing = makeAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    for (const shared of Object.values(app.getSchemas()) as Array<{ $id?: string }>) {
      if (shared.$id && !ajv.getSchema(shared.$id)) ajv.addSchema(shared);
    }
    return ajv.compile(schema);
  });
}

function makeAjv(coerceTypes: false | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}
