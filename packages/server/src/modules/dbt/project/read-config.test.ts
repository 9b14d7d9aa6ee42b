import { afterAll, describe, expect, it } from 'vitest';
import { readDbtProject, type DbtModel } from './index.js';
import { PROJECT_YML, removeTestProjects, writeTestProject } from './testing.js';

afterAll(removeTestProjects);

interface Case {
  title: string;
  /** dbt_project.yml's `models:` block. */
  project?: object;
  properties?: object;
  sql?: string;
  expected: Partial<DbtModel>;
}

/** The model under test is models/staging/web/m.sql, so its fqn is [shop, staging, web, m]. */
const cases: Case[] = [
  {
    title: 'defaults: a view, enabled, relation known only by its alias',
    expected: { materialized: 'view', enabled: true, database: null, schema: null, alias: 'm', tags: [], meta: {} },
  },
  { title: 'a project-wide setting', project: { shop: { '+materialized': 'table' } }, expected: { materialized: 'table' } },
  { title: 'a setting above the project names', project: { '+materialized': 'table' }, expected: { materialized: 'table' } },
  {
    title: 'the most specific folder wins',
    project: { shop: { '+materialized': 'table', staging: { '+materialized': 'view', web: { '+materialized': 'incremental' } } } },
    expected: { materialized: 'incremental' },
  },
  {
    title: 'a setting on the model itself in dbt_project.yml',
    project: { shop: { staging: { '+materialized': 'view', web: { m: { '+materialized': 'table', '+alias': 'mm' } } } } },
    expected: { materialized: 'table', alias: 'mm' },
  },
  {
    title: 'a sibling folder does not apply',
    project: { shop: { marts: { '+materialized': 'table' }, staging: { other: { '+enabled': false } } } },
    expected: { materialized: 'view', enabled: true },
  },
  {
    title: 'another package’s block does not apply',
    project: { dbt_utils: { '+materialized': 'table' } },
    expected: { materialized: 'view' },
  },
  {
    title: 'configs without + (before dbt 1.0)',
    project: { shop: { materialized: 'table', staging: { enabled: false, schema: 'stg' } } },
    expected: { materialized: 'table', enabled: false, schema: 'stg' },
  },
  {
    title: 'database, schema and alias',
    project: { shop: { '+database': 'analytics', staging: { '+schema': 'stg' } } },
    expected: { database: 'analytics', schema: 'stg', alias: 'm' },
  },
  { title: 'disabled by folder', project: { shop: { staging: { '+enabled': false } } }, expected: { enabled: false } },
  {
    title: 'properties config over dbt_project.yml',
    project: { shop: { '+materialized': 'table', '+schema': 'a' } },
    properties: { config: { materialized: 'ephemeral', schema: 'b' } },
    expected: { materialized: 'ephemeral', schema: 'b' },
  },
  {
    title: 'SQL config() over the properties file',
    project: { shop: { '+materialized': 'table' } },
    properties: { config: { materialized: 'view', alias: 'p' } },
    sql: "{{ config(materialized='incremental', alias='s') }}\nselect 1",
    expected: { materialized: 'incremental', alias: 's' },
  },
  {
    title: 'enabled=false in SQL over enabled in the properties file',
    properties: { config: { enabled: true } },
    sql: '{{ config(enabled=false) }}',
    expected: { enabled: false },
  },
  {
    title: 'tags add up over every level',
    project: { shop: { '+tags': 'nightly', staging: { '+tags': ['stg', 'nightly'] } } },
    properties: { config: { tags: ['pii'] } },
    sql: "{{ config(tags=['web']) }}",
    expected: { tags: ['nightly', 'stg', 'pii', 'web'] },
  },
  {
    title: 'meta merges key by key, the most specific winning',
    project: { shop: { '+meta': { owner: 'data', tier: 2 } } },
    properties: { config: { meta: { tier: 1 } } },
    sql: "{{ config(meta={'sla': '1h'}) }}",
    expected: { meta: { owner: 'data', tier: 1, sla: '1h' } },
  },
  {
    title: 'meta and tags beside config (before dbt 1.10)',
    properties: { meta: { owner: 'ann' }, tags: ['old'] },
    expected: { meta: { owner: 'ann' }, tags: ['old'] },
  },
  {
    title: 'a config written as Jinja in YAML is not taken as its value',
    project: { shop: { '+schema': "{{ env_var('S') }}", '+enabled': "{{ target.name == 'prod' }}", '+materialized': 'table' } },
    properties: { config: { alias: '{% if x %}a{% endif %}' } },
    expected: { schema: null, enabled: true, alias: 'm', materialized: 'table' },
  },
  {
    title: 'a computed config is not guessed',
    project: { shop: { '+materialized': 'table' } },
    sql: "{{ config(materialized=var('m')) }}",
    expected: { materialized: 'table' },
  },
];

describe('model configs, combined as dbt does', () => {
  it.each(cases)('$title', async ({ project, properties, sql, expected }) => {
    const dir = await writeTestProject({
      'dbt_project.yml': `${PROJECT_YML}${project ? `models: ${JSON.stringify(project)}\n` : ''}`,
      'models/staging/web/m.sql': sql ?? 'select 1 as id',
      ...(properties ? { 'models/staging/_props.yml': { version: 2, models: [{ name: 'm', ...properties }] } } : {}),
    });
    const { models, source } = await readDbtProject(dir, '');
    expect(source).toBe('files');
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ name: 'm', uniqueId: 'model.shop.m', path: 'models/staging/web/m.sql', ...expected });
  });
});
