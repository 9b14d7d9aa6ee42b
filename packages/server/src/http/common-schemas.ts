import { Type } from '@sinclair/typebox';
import { errorCodes } from './errors.js';

/** Shared component schemas: registered once, referenced by `$ref` from routes and the spec. */
export const PlatformError = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, for a person.' }),
    code: Type.Union(errorCodes.map((c) => Type.Literal(c)), { description: 'Stable machine-readable code.' }),
    requestId: Type.String({ description: 'Quote it when reporting a problem.' }),
  },
  { $id: 'Error' },
);

export const IntegerId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const IdParams = Type.Object({ id: IntegerId });

export const Timestamp = Type.String({ format: 'date-time' });
export const HttpUrl = Type.String({ format: 'url', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 2048 });

/** Empty 204 responses still need a schema, so the spec lists them. */
export const NoContent = Type.Null({ description: 'No content' });

export const toIso = (date: Date | string) => (date instanceof Date ? date : new Date(date)).toISOString();
export const toIsoOrNull = (date: Date | string | null) => (date === null ? null : toIso(date));
