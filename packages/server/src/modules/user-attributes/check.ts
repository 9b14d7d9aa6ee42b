import type { AttributeType } from '../../store/schema.js';

export type AttributeValue = string | number | string[] | number[];

export const ATTRIBUTE_TYPES: readonly AttributeType[] = ['string', 'number', 'string_array', 'number_array'];

/** How each type is described to a person in error messages. */
export const attributeTypeLabel: Record<AttributeType, string> = {
  string: 'a string',
  number: 'a number',
  string_array: 'an array of strings',
  number_array: 'an array of numbers',
};

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Whether `value` fits an attribute of `type` (section 2.6: the type must match the definition).
 * `null` is not a value here: callers treat it as "clear". Signed embedding applies the same rule.
 */
export function checkAttributeValue(type: AttributeType, value: unknown): value is AttributeValue {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return isNumber(value);
    case 'string_array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'number_array':
      return Array.isArray(value) && value.every(isNumber);
  }
}

/**
 * Definitions carry their default as text: a number's must parse to a finite number, an array's
 * must be a JSON array of that element type. Returns the parsed value, or undefined when it does not fit.
 */
export function parseDefaultValue(type: AttributeType, text: string): AttributeValue | undefined {
  if (type === 'string') return text;
  if (type === 'number') {
    const n = text.trim() === '' ? Number.NaN : Number(text);
    return Number.isFinite(n) ? n : undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return checkAttributeValue(type, parsed) ? parsed : undefined;
}

export const ATTRIBUTE_NAME = /^[A-Za-z0-9_]{1,100}$/;
