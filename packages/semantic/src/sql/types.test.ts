import { expect, it } from 'vitest';
import { pgText, pgTypeOf } from './types.js';

it('maps members to PostgreSQL types: counts int8, other numbers float8, times timestamp', () => {
  expect(pgTypeOf({ type: 'number', aggType: 'count' })).toEqual({ name: 'int8', oid: 20 });
  expect(pgTypeOf({ type: 'number', aggType: 'count_distinct' })).toEqual({ name: 'int8', oid: 20 });
  expect(pgTypeOf({ type: 'number', aggType: 'sum' })).toEqual({ name: 'float8', oid: 701 });
  expect(pgTypeOf({ type: 'number' })).toEqual({ name: 'float8', oid: 701 });
  expect(pgTypeOf({ type: 'time' })).toEqual({ name: 'timestamp', oid: 1114 });
  expect(pgTypeOf({ type: 'boolean' })).toEqual({ name: 'bool', oid: 16 });
  expect(pgTypeOf({ type: 'string' })).toEqual({ name: 'text', oid: 25 });
});

it('writes answer values in PostgreSQL text format', () => {
  expect(pgText('2024-01-31T12:30:00.000', 'timestamp')).toBe('2024-01-31 12:30:00.000');
  expect(pgText('2024-01-31T12:30:00.000', 'timestamptz')).toBe('2024-01-31 12:30:00.000+00');
  expect(pgText(true, 'bool')).toBe('t');
  expect(pgText(false, 'bool')).toBe('f');
  expect(pgText('42', 'int8')).toBe('42');
  expect(pgText(1.5, 'float8')).toBe('1.5');
  expect(pgText(null, 'text')).toBeNull();
});
