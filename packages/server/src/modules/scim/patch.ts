import { commonAttributes, findAttr, type AttributeDef, type ResourceTypeDef } from './attributes.js';
import { invalidPath, invalidSyntax, invalidValue, mutability, noTarget } from './errors.js';
import { parsePatchPath, type PatchPath } from './patch-path.js';
import { applyMulti } from './patch-multi.js';

export type Doc = Record<string, unknown>;

/** What the patch engine needs to know about a resource beyond its writable document. */
export interface PatchTarget {
  type: ResourceTypeDef;
  id: string;
  meta: Record<string, unknown>;
  /**
   * Sub-attributes the server keeps of a complex attribute, where not all of them (a group
   * member's display and type are derived). Attributes not listed keep every sub-attribute.
   */
  stored?: Record<string, string[]>;
  /** Attributes that always have a value: `remove` of one is refused, never a reset to a default. */
  unremovable?: string[];
}

export interface PatchOperation {
  op: string;
  path?: string | undefined;
  value?: unknown;
}

/**
 * `patch`: a PATCH request. `resource`: a POST or PUT body applied as one path-less replace, where
 * read-only attributes a client restates are ignored (RFC 7644 §3.5.1) rather than refused.
 */
export type PatchMode = 'patch' | 'resource';

interface Context {
  target: PatchTarget;
  mode: PatchMode;
}

/**
 * Applies RFC 7644 §3.5.2 operations to a copy of the resource's writable document, as Okta and
 * Entra ID send them: op names in any case, `replace` without a path and an object value, boolean
 * strings ("False"), `remove` of members by value filter or by a list of values, extension
 * attributes by their URN. An attribute the resource type does not have is refused, naming it, so
 * nothing a client sends is dropped unseen. Nothing is written here: the caller stores the result
 * only if every operation succeeded.
 */
export function applyPatch(doc: Doc, operations: PatchOperation[], target: PatchTarget, mode: PatchMode = 'patch'): Doc {
  const next = structuredClone(doc);
  const ctx: Context = { target, mode };
  for (const [index, operation] of operations.entries()) {
    const op = String(operation.op ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw invalidSyntax(`Operations[${index}].op "${operation.op}" is not add, replace or remove`);
    }
    if (operation.path === undefined || operation.path === null || operation.path === '') {
      if (op === 'remove') throw noTarget(`Operations[${index}]: remove needs a path`);
      const value = operation.value;
      if (!isObject(value)) throw invalidSyntax(`Operations[${index}]: ${op} without a path needs an object value`);
      for (const [key, item] of Object.entries(value)) {
        if (key.toLowerCase() === 'schemas') continue;
        applyOne(next, op, parsePatchPath(key, target.type), item, ctx);
      }
      continue;
    }
    if (typeof operation.path !== 'string') throw invalidPath(`Operations[${index}].path must be a string`);
    if (op !== 'remove' && operation.value === undefined) throw invalidSyntax(`Operations[${index}]: ${op} needs a value`);
    applyOne(next, op, parsePatchPath(operation.path, target.type), operation.value, ctx);
  }
  return next;
}

function applyOne(doc: Doc, op: string, path: PatchPath, value: unknown, ctx: Context) {
  const { extension } = path;
  if (extension && path.attr === null) return applyExtension(doc, op, path, value, ctx);
  const attributes = extension ? extension.attributes : [...commonAttributes, ...ctx.target.type.attributes];
  const def = findAttr(attributes, path.attr!);
  if (!def) throw unknownAttribute(ctx, `"${path.text}" is not an attribute of ${ctx.target.type.name}`);
  if (def.name === 'id' || def.name === 'meta') return guardReadOnly(def.name, op, path, value, ctx.target);
  if (def.mutability === 'readOnly') {
    if (ctx.mode === 'resource') return;
    throw mutability(`${def.name} is read-only`);
  }
  if (def.mutability === 'writeOnly') throw invalidValue(`${def.name} is not supported by this service provider`);
  const container = extension ? ((isObject(doc[extension.schema]) ? doc[extension.schema] : {}) as Doc) : doc;
  applyAttribute(container, op, path, value, def, ctx);
  if (extension) {
    if (Object.keys(container).length > 0) doc[extension.schema] = container;
    else delete doc[extension.schema];
  }
}

/** A path (or a path-less key) that is an extension's URN alone: its value holds that extension's attributes. */
function applyExtension(doc: Doc, op: string, path: PatchPath, value: unknown, ctx: Context) {
  const schema = path.extension!.schema;
  if (op === 'remove' || value === null) {
    delete doc[schema];
    return;
  }
  if (!isObject(value)) throw invalidValue(`${schema} takes an object of its attributes`);
  for (const [key, item] of Object.entries(value)) {
    applyOne(doc, op, parsePatchPath(`${schema}:${key}`, ctx.target.type), item, ctx);
  }
}

function applyAttribute(doc: Doc, op: string, path: PatchPath, value: unknown, def: AttributeDef, ctx: Context) {
  const storedSubs = ctx.target.stored?.[def.name] ?? (def.subAttributes ?? []).map((s) => s.name);
  const subError = (message: string) => unknownAttribute(ctx, message);
  if (def.multiValued) return applyMulti(doc, op, path, value, def, storedSubs, coerce, subError);
  if (path.filter) throw invalidPath(`"${path.text}": ${def.name} is not multi-valued`);
  if (def.type === 'complex') return applyComplex(doc, op, path, value, def, storedSubs, subError);
  if (path.sub) throw invalidPath(`"${path.text}": ${def.name} has no sub-attributes`);
  if (op === 'remove' || value === null) {
    if (def.required || ctx.target.unremovable?.includes(def.name)) {
      throw mutability(`${def.name} cannot be removed${def.type === 'boolean' ? ': set it to true or false' : ''}`);
    }
    delete doc[def.name];
    return;
  }
  doc[def.name] = coerce(value, def);
}

function applyComplex(
  doc: Doc,
  op: string,
  path: PatchPath,
  value: unknown,
  def: AttributeDef,
  storedSubs: string[],
  subError: (m: string) => Error,
) {
  const current = isObject(doc[def.name]) ? (doc[def.name] as Doc) : {};
  const setSub = (name: string, v: unknown) => {
    const sub = def.subAttributes && findAttr(def.subAttributes, name);
    if (!sub) throw subError(`"${name}" is not a sub-attribute of ${def.name}`);
    if (!storedSubs.includes(sub.name)) return;
    if (v === null || v === undefined) delete current[sub.name];
    else current[sub.name] = coerce(v, sub);
  };
  if (path.sub) {
    setSub(path.sub, op === 'remove' ? null : value);
  } else if (op === 'remove' || value === null) {
    for (const key of Object.keys(current)) delete current[key];
  } else if (typeof value === 'string' && def.subAttributes && findAttr(def.subAttributes, 'value')) {
    // Entra ID sends the enterprise manager as the manager's id alone.
    if (op === 'replace') for (const key of Object.keys(current)) delete current[key];
    setSub('value', value);
  } else {
    if (!isObject(value)) throw invalidValue(`${def.name} takes an object of sub-attributes`);
    for (const [key, v] of Object.entries(value)) setSub(key, v);
  }
  if (Object.keys(current).length > 0) doc[def.name] = current;
  else delete doc[def.name];
}

/**
 * `id` and `meta` are read-only. Okta repeats the id in `replace` values, so restating the current
 * value is accepted; any other value, or removing them, is a `mutability` error.
 */
function guardReadOnly(name: string, op: string, path: PatchPath, value: unknown, target: PatchTarget) {
  if (op !== 'remove' && !path.filter) {
    if (name === 'id' && !path.sub && value === target.id) return;
    if (name === 'meta') {
      const restated = path.sub ? { [path.sub]: value } : value;
      if (isObject(restated) && Object.entries(restated).every(([k, v]) => sameMeta(target.meta, k, v))) return;
    }
  }
  throw mutability(`${name} is read-only`);
}

function sameMeta(meta: Record<string, unknown>, key: string, value: unknown): boolean {
  const actual = Object.entries(meta).find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
  return actual === value;
}

/** A PATCH path names a target (`invalidPath`); a POST or PUT body is a message (`invalidSyntax`). */
function unknownAttribute(ctx: Context, message: string): Error {
  return ctx.mode === 'patch' ? invalidPath(message) : invalidSyntax(message);
}

/** Entra ID sends booleans as "True"/"False" (any case); any other type mismatch is `invalidValue`. */
export function coerce(value: unknown, def: AttributeDef): unknown {
  if (def.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
    throw invalidValue(`${def.name} must be a boolean (true or false)`);
  }
  if (typeof value !== 'string') throw invalidValue(`${def.name} must be a string`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
