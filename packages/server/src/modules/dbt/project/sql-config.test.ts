import { describe, expect, it } from 'vitest';
import { readSqlConfig } from './sql-config.js';

describe('config() in model SQL, read without running Jinja', () => {
  it.each([
    ["{{ config(materialized='table') }}\nselect 1", { materialized: 'table' }],
    ['{{ config(materialized="incremental", unique_key="id") }}', { materialized: 'incremental', unique_key: 'id' }],
    ['{{- config(enabled=False) -}}', { enabled: false }],
    ['{{ config(enabled=true, alias="o") }}', { enabled: true, alias: 'o' }],
    ["{{ config(tags=['a', \"b\"], schema='marts') }}", { tags: ['a', 'b'], schema: 'marts' }],
    ["{{ config(meta={'owner': 'ann', 'tier': 1}) }}", { meta: { owner: 'ann', tier: 1 } }],
    ["{{ config(\n    materialized = 'view',\n    tags = ('x',),\n) }}", { materialized: 'view', tags: ['x'] }],
    // Computed values cannot be known before dbt runs: left out, the rest still read.
    ["{{ config(schema=var('s'), materialized='table') }}", { materialized: 'table' }],
    ["{{ config(alias='o_' ~ var('x'), enabled=true) }}", { enabled: true }],
    ["{{ config(materialized=env_var('M', 'view')) }}", {}],
    ["{{ config(tags=['a', var('t')], alias='x') }}", { alias: 'x' }],
    [
      '{{ config(post_hook=["grant select on {{ this }} to r"], materialized=\'table\') }}',
      { post_hook: ['grant select on {{ this }} to r'], materialized: 'table' },
    ],
    ['{{ config(materialized="it\\"s") }}', { materialized: 'it"s' }],
    // Several calls: later ones win, as in dbt.
    ["{{ config(materialized='view') }}\n{{ config(materialized='table') }}", { materialized: 'table' }],
    ['select 1', {}],
    ['{{ config(', {}],
    // An unclosed call is not valid Jinja: nothing is taken from it.
    ["{{ config(materialized='table'", {}],
    ["{% if x %}{{ config(materialized='table') }}{% endif %}", { materialized: 'table' }],
  ])('%s', (sql, expected) => {
    expect(readSqlConfig(sql)).toEqual(expected);
  });
});
