import { splitSchema, type ResourceTypeDef } from './attributes.js';
import type { ScimResource } from './mappers.js';

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9). Paths are case-insensitive and
 * may carry the schema URN; `id` and `schemas` are returned always and cannot be excluded.
 */
export class Projection {
  private constructor(
    private readonly include: string[][] | undefined,
    private readonly exclude: string[][],
  ) {}

  static of(type: ResourceTypeDef, attributes?: string | string[], excluded?: string | string[]): Projection {
    const include = splitPaths(type, attributes);
    return new Projection(include.length > 0 ? include : undefined, splitPaths(type, excluded));
  }

  /** Whether the top-level attribute is needed at all; lets the caller skip loading it. */
  wants(attribute: string): boolean {
    const name = attribute.toLowerCase();
    if (this.exclude.some((p) => p.length === 1 && p[0] === name)) return false;
    return !this.include || this.include.some((p) => p[0] === name);
  }

  /** Whether `attributes` names it: attributes returned only on request (RFC 7643 §7) need that. */
  requests(attribute: string): boolean {
    const name = attribute.toLowerCase();
    return Boolean(this.include?.some((p) => p[0] === name)) && this.wants(attribute);
  }

  apply(resource: ScimResource): ScimResource {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      if (lower === 'id' || lower === 'schemas') {
        out[key] = value;
        continue;
      }
      const projected = this.project(lower, value);
      if (projected !== undefined) out[key] = projected;
    }
    return out as ScimResource;
  }

  private project(name: string, value: unknown): unknown {
    if (this.exclude.some((p) => p.length === 1 && p[0] === name)) return undefined;
    const subExcluded = this.exclude.filter((p) => p.length === 2 && p[0] === name).map((p) => p[1]!);
    let subIncluded: string[] | undefined;
    if (this.include) {
      const matches = this.include.filter((p) => p[0] === name);
      if (matches.length === 0) return undefined;
      if (!matches.some((p) => p.length === 1)) subIncluded = matches.map((p) => p[1]!);
    }
    if (!subIncluded && subExcluded.length === 0) return value;
    const pick = (item: unknown) => {
      if (!item || typeof item !== 'object') return item;
      return Object.fromEntries(
        Object.entries(item).filter(([k]) => {
          const sub = k.toLowerCase();
          return (!subIncluded || subIncluded.includes(sub)) && !subExcluded.includes(sub);
        }),
      );
    };
    return Array.isArray(value) ? value.map(pick) : pick(value);
  }
}

/**
 * Paths as [attribute, sub-attribute]. An extension's attributes are reached under its URN, which
 * is the resource's key for them: `urn:…:enterprise:2.0:User:manager.value` is
 * [urn, manager, value], and the URN alone is [urn].
 */
function splitPaths(type: ResourceTypeDef, raw: string | string[] | undefined): string[][] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : raw.split(',');
  return list
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '')
    .map((p) => {
      const { extension, rest } = splitSchema(type, p);
      if (!extension) return (rest ?? p).split('.');
      const urn = extension.schema.toLowerCase();
      return rest ? [urn, ...rest.split('.')] : [urn];
    });
}
