import { describe, expect, it } from 'vitest';
import { columnDimensionType, dimensionTypeFromName, dimensionTypeOf } from './members.js';

describe('dimension types from data_type', () => {
  it.each([
    ['integer', 'number'],
    ['BIGINT', 'number'],
    ['int64', 'number'],
    ['numeric(18,2)', 'number'],
    ['DECIMAL(10, 2)', 'number'],
    ['NUMBER(38,0)', 'number'],
    ['double precision', 'number'],
    ['float64', 'number'],
    ['real', 'number'],
    ['hugeint', 'number'],
    ['int unsigned', 'number'],
    ['varchar', 'string'],
    ['VARCHAR(256)', 'string'],
    ['character varying(20)', 'string'],
    ['text', 'string'],
    ['STRING', 'string'],
    ['uuid', 'string'],
    ['jsonb', 'string'],
    ['VARIANT', 'string'],
    ['ARRAY<STRING>', 'string'],
    ['integer[]', 'string'],
    ['boolean', 'boolean'],
    ['BOOL', 'boolean'],
    ['date', 'time'],
    ['timestamp', 'time'],
    ['TIMESTAMP_NTZ(9)', 'time'],
    ['timestamp with time zone', 'time'],
    ['timestamptz', 'time'],
    ['DATETIME', 'time'],
    ['time', 'time'],
  ])('%s → %s', (dataType, expected) => {
    expect(dimensionTypeOf(dataType)).toBe(expected);
  });

  it.each([[''], ['  '], ['my_custom_domain']])('%j says nothing', (dataType) => {
    expect(dimensionTypeOf(dataType)).toBeNull();
  });
});

describe('dimension types from column names', () => {
  it.each([
    ['created_at', 'time'],
    ['order_date', 'time'],
    ['date', 'time'],
    ['created', 'time'],
    ['updated', 'time'],
    ['shipped_on', 'time'],
    ['event_timestamp', 'time'],
    ['is_active', 'boolean'],
    ['has_discount', 'boolean'],
    ['IS_DELETED', 'boolean'],
    ['id', 'number'],
    ['customer_id', 'number'],
    ['amount', 'number'],
    ['price', 'number'],
    ['quantity', 'number'],
    ['order_count', 'number'],
    ['total_amount', 'number'],
    ['num_items', 'number'],
    ['name', 'string'],
    ['status', 'string'],
    ['email', 'string'],
    ['identity', 'string'],
    ['island', 'string'],
    ['createdAt', 'time'],
    ['Order Date', 'time'],
    ['IsActive', 'boolean'],
    ['CUSTOMER_ID', 'number'],
  ])('%s → %s', (name, expected) => {
    expect(dimensionTypeFromName(name)).toBe(expected);
  });
});

describe('data_type over the name', () => {
  it.each([
    [{ name: 'customer_id', dataType: 'varchar' }, 'string'],
    [{ name: 'created_at', dataType: 'varchar(30)' }, 'string'],
    [{ name: 'status', dataType: 'int' }, 'number'],
    [{ name: 'created_at', dataType: null }, 'time'],
    [{ name: 'created_at', dataType: 'my_domain' }, 'time'],
  ])('%j → %s', (column, expected) => {
    expect(columnDimensionType(column)).toBe(expected);
  });
});
