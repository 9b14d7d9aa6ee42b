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
  /** Attributes the server stores: `true`, or the stored sub-attributes of a complex one. */
  stored: Record<string, true | string[]>;
}

export interface PatchOperation {
  op: string;
  path?: string | undefined;
  value?: unknown;
}

/**
 * Applies RFC 7644 §3.5.2 operations to a copy of the resource's writable document, as Okta and
 * Entra ID send them: op names in any case, `replace` without a path and an object value, boolean
 * strings ("False"), `remove` of members by value filter or by a list of values. Attributes of
 * schemas this server does not implement are accepted and ignored, as RFC 7644 §3.5.2 allows, so
 * a client's default attribute mapping never fails a whole request. Nothing is written here: the
 * caller stores the result only if every operation succeeded.
 */
export function applyPatch(doc: Doc, operations: PatchOperation[], target: PatchTarget): Doc {
  const next = structuredClone(doc);
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
        applyOne(next, op, parsePatchPath(key, target.type), item, target);
      }
      continue;
    }
    if (typeof operation.path !== 'string') throw invalidPath(`Operations[${index}].path must be a string`);
    if (op !== 'remove' && operation.value === undefined) throw invalidSyntax(`Operations[${index}]: ${op} needs a value`);
    applyOne(next, op, parsePatchPath(operation.path, target.type), operation.value, target);
  }
  return next;
}

function applyOne(doc: Doc, op: string, path: PatchPath, value: unknown, target: PatchTarget) {
  if (path.attr === null) return;
  const def = findAttr([...commonAttributes, ...target.type.attributes], path.attr);
  if (!def) return;
  if (def.name === 'id' || def.name === 'meta') return guardReadOnly(def.name, op, path, value, target);
  const stored = target.stored[def.name];
  if (!stored) return;
  if (def.multiValued) return applyMulti(doc, op, path, value, def, stored === true ? [] : stored, coerce);
  if (path.filter) throw invalidPath(`"${path.text}": ${def.name} is not multi-valued`);
  if (def.type === 'complex') return applyComplex(doc, op, path, value, def, stored === true ? [] : stored);
  if (path.sub) throw invalidPath(`"${path.text}": ${def.name} has no sub-attributes`);
  if (op === 'remove' || value === null) {
    if (def.required) throw mutability(`${def.name} is required and cannot be removed`);
    delete doc[def.name];
    return;
  }
  doc[def.name] = coerce(value, def);
}

function applyComplex(doc: Doc, op: string, path: PatchPath, value: unknown, def: AttributeDef, storedSubs: string[]) {
  const current = isObject(doc[def.name]) ? (doc[def.name] as Doc) : {};
  const setSub = (name: string, v: unknown) => {
    const sub = def.subAttributes && findAttr(def.subAttributes, name);
    if (!sub || !storedSubs.includes(sub.name)) return;
    if (v === null || v === undefined) delete current[sub.name];
    else current[sub.name] = coerce(v, sub);
  };
  if (path.sub) {
    setSub(path.sub, op === 'remove' ? null : value);
  } else if (op === 'remove' || value === null) {
    for (const key of Object.keys(current)) delete current[key];
  } else {
    if (!isObject(value)) throw invalidValue(`${def.name} takes an object of sub-attributes`);
    for (const [key, v] of Object.entries(value)) setSub(key, v);
  }
  doc[def.name] = current;
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

/** Entra ID sends booleans as "True"/"False"; any other type mismatch is `invalidValue`. */
export function coerce(value: unknown, def: AttributeDef): unknown {
  if (def.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
    throw invalidValue(`${def.name} must be a boolean`);
  }
  if (typeof value !== 'string') throw invalidValue(`${def.name} must be a string`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
