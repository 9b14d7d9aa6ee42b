import type { Filter } from 'scim2-parse-filter';
import { parse } from 'scim2-parse-filter';
import type { ResourceTypeDef } from './attributes.js';
import { invalidFilter, invalidPath } from './errors.js';

/** A PATCH path (RFC 7644 §3.5.2): `attr`, `attr.sub`, `attr[filter]` or `attr[filter].sub`. */
export interface PatchPath {
  /** Null when the path names an attribute of a schema this server does not implement. */
  attr: string | null;
  filter?: Filter;
  sub?: string;
  text: string;
}

const PATH = /^([A-Za-z$][\w$-]*)(?:\[(.*)\])?(?:\.([A-Za-z$][\w$-]*))?$/s;

/**
 * scim2-parse-filter parses filters but not PATCH paths (the bracketed form followed by a
 * sub-attribute is not a filter), so the path is split here and only its filter goes to the parser.
 */
export function parsePatchPath(text: string, type: ResourceTypeDef): PatchPath {
  let rest = text.trim();
  const core = `${type.schema}:`;
  if (rest.toLowerCase().startsWith(core.toLowerCase())) rest = rest.slice(core.length);
  else if (/^urn:/i.test(rest)) return { attr: null, text };
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
  return { attr: attr!, ...(filter ? { filter } : {}), ...(sub ? { sub } : {}), text };
}
