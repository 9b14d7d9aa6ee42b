/** Filtering an OpenAPI document down to the operations a pattern matches. */
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface OperationRow {
  method: string;
  path: string;
  summary: string;
  operationId: string;
}

interface Operation {
  summary?: string;
  operationId?: string;
  tags?: string[];
}
/** A path item: its operations by method, and whatever else OpenAPI puts there (parameters, servers). */
type PathItem = Record<string, unknown> & Partial<Record<(typeof METHODS)[number], Operation>>;
/** The parts of an OpenAPI document the filter reads; the rest is carried through untouched. */
export interface Doc {
  paths?: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown>>;
  tags?: Array<{ name: string }>;
  [key: string]: unknown;
}

export function operations(doc: Doc): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) rows.push({ method: method.toUpperCase(), path, summary: op.summary ?? '', operationId: op.operationId ?? '' });
    }
  }
  return rows;
}

/** Section 4.8: the pattern matches method, path, summary and operation id, case-insensitively. */
export function matches(row: OperationRow, pattern: string): boolean {
  const needle = pattern.toLowerCase();
  return [row.method, row.path, row.summary, row.operationId].some((field) => field.toLowerCase().includes(needle));
}

/** Every `#/components/<kind>/<name>` a value refers to, directly. */
function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) found.add(v);
      else refsIn(v, found);
    }
  }
}

const unescape = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * A valid OpenAPI document with only the matching operations and every component they reference,
 * followed transitively (schemas that reference schemas, and so on). Security schemes are kept
 * whole, since operations name them without `$ref`; tags are those the kept operations use.
 */
export function filterDocument(doc: Doc, pattern: string): Doc {
  const paths: Record<string, PathItem> = {};
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const kept: PathItem = {};
    for (const method of METHODS) {
      const op = item[method];
      if (!op || !matches({ method: method.toUpperCase(), path, summary: op.summary ?? '', operationId: op.operationId ?? '' }, pattern))
        continue;
      kept[method] = op;
      for (const tag of op.tags ?? []) tags.add(tag);
    }
    if (Object.keys(kept).length === 0) continue;
    for (const [key, value] of Object.entries(item)) if (!(METHODS as readonly string[]).includes(key)) kept[key] = value;
    paths[path] = kept;
  }

  const components: Record<string, Record<string, unknown>> = {};
  const pending = new Set<string>();
  refsIn(paths, pending);
  const seen = new Set<string>();
  while (pending.size > 0) {
    const ref = pending.values().next().value as string;
    pending.delete(ref);
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [kind, name] = ref.slice('#/components/'.length).split('/').map(unescape) as [string, string];
    const target = doc.components?.[kind]?.[name];
    if (target === undefined) continue;
    (components[kind] ??= {})[name] = target;
    const more = new Set<string>();
    refsIn(target, more);
    for (const r of more) if (!seen.has(r)) pending.add(r);
  }
  if (doc.components?.securitySchemes) components.securitySchemes = doc.components.securitySchemes;

  const result: Doc = { ...doc, paths, components };
  if (Array.isArray(doc.tags)) result.tags = doc.tags.filter((t) => tags.has(t.name));
  delete result.webhooks;
  return result;
}
