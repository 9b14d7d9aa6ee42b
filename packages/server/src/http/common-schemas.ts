import { Kind, Type, TypeRegistry, type SchemaOptions, type TSchema } from '@sinclair/typebox';
import { errorCodes } from './errors.js';

export interface TStringEnum<T extends readonly string[]> extends TSchema {
  [Kind]: 'StringEnum';
  static: T[number];
  type: 'string';
  enum: T;
}

TypeRegistry.Set<TStringEnum<string[]>>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/**
 * A fixed set of strings, published as an `enum` list (TypeBox's union of literals would appear
 * in the spec as an `anyOf` of constants, and fail validation with one message per constant).
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TStringEnum<T> {
  return { ...options, [Kind]: 'StringEnum', type: 'string', enum: values } as unknown as TStringEnum<T>;
}

/** Shared component schemas: registered once, referenced by `$ref` from routes and the spec. */
export const PlatformError = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, for a person.' }),
    code: StringEnum(errorCodes, { description: 'Stable machine-readable code.' }),
    requestId: Type.String({ description: 'Quote it when reporting a problem.' }),
  },
  { $id: 'Error' },
);

export const IntegerId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const IdParams = Type.Object({ id: IntegerId });

export const Timestamp = Type.String({ format: 'date-time' });
export const HttpUrl = Type.String({ format: 'url', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 2048 });

/** The 200 body of a delete that the reference answers with JSON rather than 204. */
export const Deleted = Type.Object(
  { id: Type.Integer({ description: 'The id of what was deleted.' }), deleted: Type.Literal(true) },
  { $id: 'Deleted', examples: [{ id: 42, deleted: true }] },
);

/** Empty 204 responses still need a schema, so the spec lists them. */
export const NoContent = Type.Null({ description: 'No content' });

export const toIso = (date: Date | string) => (date instanceof Date ? date : new Date(date)).toISOString();
export const toIsoOrNull = (date: Date | string | null) => (date === null ? null : toIso(date));
