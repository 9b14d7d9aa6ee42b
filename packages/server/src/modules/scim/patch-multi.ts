import type { Filter } from 'scim2-parse-filter';
import { findAttr, type AttributeDef } from './attributes.js';
import { invalidValue, noTarget } from './errors.js';
import type { PatchPath } from './patch-path.js';
import { matchesItem } from './value-filter.js';

type Item = Record<string, unknown>;

/**
 * RFC 7644 §3.5.2 on a multi-valued attribute (members, emails). `storedSubs` are the
 * sub-attributes kept on an item; only the writable ones among them can be set through a
 * `attr[filter].sub` path (a member's display or type is derived, so such paths are ignored).
 * At most one item is primary (RFC 7643 §2.4): an operation that makes one primary clears the others.
 */
export function applyMulti(
  doc: Item,
  op: string,
  path: PatchPath,
  value: unknown,
  def: AttributeDef,
  storedSubs: string[],
  coerce: (value: unknown, def: AttributeDef) => unknown,
  unknownSub: (message: string) => Error,
) {
  const items = ((Array.isArray(doc[def.name]) ? doc[def.name] : []) as Item[]).map((item) => ({ ...item }));
  const matches = (item: Item) => (path.filter ? matchesItem(path.filter, item, def) : true);
  if (path.sub) {
    const sub = def.subAttributes && findAttr(def.subAttributes, path.sub);
    if (!sub) throw unknownSub(`"${path.text}": ${path.sub} is not a sub-attribute of ${def.name}`);
    if (!storedSubs.includes(sub.name) || sub.mutability !== 'readWrite') return;
    doc[def.name] = setSub(items, op, path, value, { def, sub, storedSubs }, matches, coerce);
    return;
  }
  if (op === 'remove') {
    if (path.filter) {
      doc[def.name] = items.filter((item) => !matches(item));
    } else if (value !== undefined && value !== null) {
      // Entra ID removes members as {op: remove, path: members, value: [{value: id}]}.
      const gone = toItems(value, def, storedSubs, coerce, unknownSub);
      doc[def.name] = items.filter((item) => !gone.some((wanted) => sameItem(item, wanted, def)));
    } else {
      doc[def.name] = [];
    }
    return;
  }
  const incoming = value === null ? [] : toItems(value, def, storedSubs, coerce, unknownSub);
  if (incoming.filter((item) => item.primary === true).length > 1) throw invalidValue(`At most one of ${def.name} can be primary`);
  let next: Item[];
  if (op === 'replace' && path.filter) {
    if (!items.some(matches)) throw noTarget(`No ${def.name} match "${path.text}"`);
    next = merge(
      items.filter((item) => !matches(item)),
      incoming,
      def,
    );
  } else {
    next = merge(op === 'replace' ? [] : items, incoming, def);
  }
  const primary = incoming.find((item) => item.primary === true);
  doc[def.name] = primary ? onlyPrimary(next, (item) => sameItem(item, primary, def)) : next;
}

/**
 * `emails[type eq "work"].value`. Entra ID sends it with `Add` (and `Replace`) whether or not a
 * work address exists yet, so when nothing matches and the filter is a plain `eq` (or an `and` of
 * them), the item the filter describes is created, as RFC 7644 §3.5.2.3 treats a replace of a
 * missing attribute as an add. Removing an item's value removes the item.
 */
function setSub(
  items: Item[],
  op: string,
  path: PatchPath,
  value: unknown,
  { def, sub, storedSubs }: { def: AttributeDef; sub: AttributeDef; storedSubs: string[] },
  matches: (item: Item) => boolean,
  coerce: (value: unknown, def: AttributeDef) => unknown,
): Item[] {
  if (op === 'remove' || value === null) {
    if (sub.name === 'value') return items.filter((item) => !matches(item));
    for (const item of items.filter(matches)) delete item[sub.name];
    return items;
  }
  const v = coerce(value, sub);
  let targets = items.filter(matches);
  if (targets.length === 0) {
    const described = path.filter && describedItem(path.filter, def, storedSubs, coerce);
    if (!described) throw noTarget(`No item matches "${path.text}"`);
    items.push(described);
    targets = [described];
  }
  for (const item of targets) item[sub.name] = v;
  const primaries = targets.filter((item) => item.primary === true);
  if (primaries.length > 1 && sub.name === 'primary') throw invalidValue(`"${path.text}" would make several items primary`);
  // Only an item this operation made or kept primary may stay so.
  return primaries.length === 1 ? onlyPrimary(items, (item) => item === primaries[0]) : items;
}

/** The item a filter of `eq` comparisons joined by `and` describes; undefined for anything else. */
function describedItem(
  filter: Filter,
  def: AttributeDef,
  storedSubs: string[],
  coerce: (value: unknown, def: AttributeDef) => unknown,
): Item | undefined {
  if (filter.op === 'eq' && 'compValue' in filter && filter.compValue !== null) {
    const sub = def.subAttributes && findAttr(def.subAttributes, filter.attrPath);
    if (!sub || !storedSubs.includes(sub.name)) return undefined;
    return { [sub.name]: coerce(filter.compValue, sub) };
  }
  if (filter.op === 'and') {
    const parts = filter.filters.map((f) => describedItem(f, def, storedSubs, coerce));
    return parts.every((p) => p !== undefined) ? Object.assign({}, ...parts) : undefined;
  }
  return undefined;
}

function onlyPrimary(items: Item[], isPrimary: (item: Item) => boolean): Item[] {
  return items.map((item) => (item.primary === true && !isPrimary(item) ? { ...item, primary: false } : item));
}

/** Adding an item that is already there (same value, and same type where items have one) updates it. */
function merge(items: Item[], incoming: Item[], def: AttributeDef): Item[] {
  const out = [...items];
  for (const item of incoming) {
    const at = out.findIndex((existing) => sameItem(existing, item, def));
    if (at >= 0) out[at] = { ...out[at], ...item };
    else out.push(item);
  }
  return out;
}

/** Same value (case-insensitively unless caseExact), and same type when the wanted item names one. */
function sameItem(item: Item, wanted: Item, def: AttributeDef): boolean {
  const exact = def.subAttributes && findAttr(def.subAttributes, 'value')?.caseExact;
  const norm = (v: unknown) => (typeof v === 'string' && !exact ? v.toLowerCase() : v);
  if (norm(item.value) !== norm(wanted.value)) return false;
  return typeof wanted.type !== 'string' || String(item.type ?? '').toLowerCase() === wanted.type.toLowerCase();
}

/**
 * Items as sent. Each needs its `value` where the attribute has one (addresses have none, and need
 * some sub-attribute); a sub-attribute the attribute does not have is refused, one it has but does
 * not keep (a member's derived display) is left out.
 */
function toItems(
  value: unknown,
  def: AttributeDef,
  storedSubs: string[],
  coerce: (value: unknown, def: AttributeDef) => unknown,
  unknownSub: (message: string) => Error,
): Item[] {
  const list = Array.isArray(value) ? value : [value];
  const hasValue = Boolean(def.subAttributes && findAttr(def.subAttributes, 'value'));
  return list.map((raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidValue(`Each item of ${def.name} must be an object`);
    if (hasValue && (typeof (raw as Item).value !== 'string' || (raw as Item).value === '')) {
      throw invalidValue(`Each item of ${def.name} needs a "value" string`);
    }
    const item: Item = {};
    for (const [key, v] of Object.entries(raw as Item)) {
      const sub = def.subAttributes && findAttr(def.subAttributes, key);
      if (!sub) throw unknownSub(`"${key}" is not a sub-attribute of ${def.name}`);
      if (storedSubs.includes(sub.name) && v !== null && v !== undefined) item[sub.name] = coerce(v, sub);
    }
    if (Object.keys(item).length === 0) throw invalidValue(`An item of ${def.name} has no sub-attribute`);
    return item;
  });
}
