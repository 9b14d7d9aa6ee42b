import type { Filter } from 'scim2-parse-filter';
import { parse } from 'scim2-parse-filter';
import { splitSchema, type ResourceTypeDef, type SchemaExtensionDef } from './attributes.js';
import { invalidFilter, invalidPath } from './errors.js';

/** A PATCH path (RFC 7644 §3.5.2): `attr`, `attr.sub`, `attr[filter]` or `attr[filter].sub`, maybe behind a schema URN. */
export interface PatchPath {
  /** Null when the path is an extension's URN alone: the value holds that extension's attributes. */
  attr: string | null;
  /** The extension the attribute belongs to; absent for the core schema. */
  extension?: SchemaExtensionDef;
  filter?: Filter;
  sub?: string;
  text: string;
}

const PATH = /^([A-Za-z$][\w$-]*)(?:\[(.*)\])?(?:\.([A-Za-z$][\w$-]*))?$/s;

/**
 * scim2-parse-filter parses filters but not PATCH paths (the bracketed form followed by a
 * sub-attribute is not a filter), so the path is split here and only its filter goes to the parser.
 * A URN of a schema the resource type does not have is `invalidPath`: nothing is silently dropped.
 */
export function parsePatchPath(text: string, type: ResourceTypeDef): PatchPath {
  const { extension, rest } = splitSchema(type, text.trim());
  if (rest === undefined) throw invalidPath(`"${text}" names a schema ${type.name} does not have`);
  const ext = extension ? { extension } : {};
  if (rest === '' && extension) return { attr: null, ...ext, text };
  const match = PATH.exec(rest);
  if (!match) throw invalidPath(`"${text}" is not a valid attribute path`);
  const [, attr, filterText, sub] = match;
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parse(filterText);
    } catch (error) {
      throw invalidFilter(`The filter in path "${text}" is not valid: ${(error as Error).message}`);
    }
  }
  return { attr: attr!, ...ext, ...(filter ? { filter } : {}), ...(sub ? { sub } : {}), text };
}
