import { invalidSyntax } from './errors.js';

/**
 * RFC 7644 §3 (and §3.4.3, §3.5.2, §3.7): a request body's `schemas` names what the body is. One
 * that is missing, does not name `expected`, or names a schema this endpoint does not take is
 * `invalidSyntax`, so a client posting a Group to /Users, or a PatchOp as a resource, hears so.
 */
export function requireSchemas(body: unknown, expected: string, allowed: readonly string[] = [expected]): void {
  const schemas = body && typeof body === 'object' ? (body as { schemas?: unknown }).schemas : undefined;
  if (!Array.isArray(schemas) || !schemas.every((s): s is string => typeof s === 'string')) {
    throw invalidSyntax(`schemas is required and must be a list naming "${expected}"`);
  }
  const known = allowed.map((s) => s.toLowerCase());
  const foreign = schemas.find((s) => !known.includes(s.toLowerCase()));
  if (foreign !== undefined) throw invalidSyntax(`schemas names "${foreign}", which this endpoint does not take; expected "${expected}"`);
  if (!schemas.some((s) => s.toLowerCase() === expected.toLowerCase())) throw invalidSyntax(`schemas must name "${expected}"`);
}
