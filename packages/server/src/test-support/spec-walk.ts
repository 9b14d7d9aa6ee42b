/**
 * Reads the served OpenAPI document as a client would, to build requests for every operation:
 * a sample body from a request schema, and the path of each string or number field in it.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface SpecOperation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  security?: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  operationId?: string;
  tags?: string[];
}

export interface SpecDocument {
  paths: Record<string, Record<string, SpecOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

type Path = Array<string | number>;
const MAX_DEPTH = 6;

function resolve(schema: JsonSchema, doc: SpecDocument): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    current = doc.components.schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
}

function typesOf(schema: JsonSchema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** A value the schema accepts where that is easy to tell: examples, required fields, first branches. */
export function sampleBody(raw: JsonSchema, doc: SpecDocument, depth = 0): unknown {
  const schema = resolve(raw, doc);
  if (schema.examples?.length) return structuredClone(schema.examples[0]);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const branch = branches.find((b) => !typesOf(resolve(b, doc)).includes('null')) ?? branches[0]!;
    return sampleBody(branch, doc, depth);
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleBody(s, doc, depth)));
  const type = typesOf(schema).find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      if (depth > MAX_DEPTH) return {};
      const required = schema.required ?? [];
      return Object.fromEntries(required.map((name) => [name, sampleBody(schema.properties?.[name] ?? {}, doc, depth + 1)]));
    }
    case 'array':
      return schema.items && depth <= MAX_DEPTH ? [sampleBody(schema.items, doc, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema);
    default:
      return 'x';
  }
}

function sampleString(schema: JsonSchema): string {
  if (schema.format === 'email') return 'ann@example.com';
  if (schema.format === 'url' || schema.format === 'uri') return 'https://example.com/a';
  if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  return 'sample-value'.padEnd(schema.minLength ?? 0, 'x');
}

/** The paths of every field of `kind` (strings, or numbers) the schema declares, to some depth. */
export function leafPaths(raw: JsonSchema, doc: SpecDocument, kind: 'string' | 'number', at: Path = [], depth = 0): Path[] {
  const schema = resolve(raw, doc);
  if (depth > MAX_DEPTH) return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (branches.length > 0) return dedupe(branches.flatMap((b) => leafPaths(b, doc, kind, at, depth)));
  const types = typesOf(schema);
  const wanted = kind === 'string' ? ['string'] : ['number', 'integer'];
  if (types.some((t) => wanted.includes(t)) || (types.length === 0 && !schema.properties && schema.enum === undefined)) {
    return at.length > 0 || types.length > 0 ? [at] : [];
  }
  const paths: Path[] = [];
  if (types.includes('array') && schema.items) paths.push(...leafPaths(schema.items, doc, kind, [...at, 0], depth + 1));
  if (types.includes('object') || schema.properties) {
    for (const [name, child] of Object.entries(schema.properties ?? {}))
      paths.push(...leafPaths(child, doc, kind, [...at, name], depth + 1));
    if (!schema.properties && schema.additionalProperties !== false) paths.push([...at, 'x']);
  }
  return paths;
}

function dedupe(paths: Path[]): Path[] {
  const seen = new Set<string>();
  return paths.filter((p) => !seen.has(JSON.stringify(p)) && seen.add(JSON.stringify(p)));
}

/** A copy of `value` with `path` set, creating the objects and arrays on the way. */
export function setAt(value: unknown, path: Path, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const container: any =
    typeof head === 'number'
      ? Array.isArray(value)
        ? [...value]
        : []
      : value && typeof value === 'object' && !Array.isArray(value)
        ? { ...value }
        : {};
  container[head!] = setAt(container[head!], rest, leaf);
  return container;
}
