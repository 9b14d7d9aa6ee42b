import { afterAll, describe, expect, it } from 'vitest';
import { readDbtProject, type DbtColumnTest } from './index.js';
import { PROJECT_YML, removeTestProjects, writeTestProject } from './testing.js';

afterAll(removeTestProjects);

async function columnOf(column: object) {
  const dir = await writeTestProject({
    'dbt_project.yml': PROJECT_YML,
    'models/m.sql': 'select 1',
    'models/m.yml': { version: 2, models: [{ name: 'm', columns: [{ name: 'c', ...column }] }] },
  });
  return (await readDbtProject(dir, '')).models[0]!.columns[0]!;
}

describe('column tests in every form dbt accepts', () => {
  it.each<[string, unknown, DbtColumnTest]>([
    ['unique', 'unique', { kind: 'unique' }],
    ['not_null', 'not_null', { kind: 'not_null' }],
    ['unique with config', { unique: { config: { severity: 'warn' } } }, { kind: 'unique' }],
    ['not_null with where', { not_null: { config: { where: 'x > 1' } } }, { kind: 'not_null' }],
    ['relationships', { relationships: { to: "ref('customers')", field: 'id' } }, { kind: 'relationships', to: 'customers', field: 'id' }],
    [
      'relationships, double quotes',
      { relationships: { to: 'ref("customers")', field: 'id' } },
      { kind: 'relationships', to: 'customers', field: 'id' },
    ],
    [
      'relationships under arguments (dbt 1.10)',
      { relationships: { arguments: { to: "ref('customers')", field: 'customer_key' }, config: { severity: 'warn' } } },
      { kind: 'relationships', to: 'customers', field: 'customer_key' },
    ],
    [
      'relationships to a package model',
      { relationships: { to: "ref('crm', 'accounts')", field: 'id' } },
      { kind: 'relationships', to: 'accounts', field: 'id' },
    ],
    [
      'relationships to a versioned model',
      { relationships: { to: "ref('customers', v=2)", field: 'id' } },
      { kind: 'relationships', to: 'customers', field: 'id' },
    ],
    [
      'relationships by test_name',
      { test_name: 'relationships', to: "ref('customers')", field: 'id' },
      { kind: 'relationships', to: 'customers', field: 'id' },
    ],
    // A source is not a model, so there is no cube to join.
    [
      'relationships to a source',
      { relationships: { to: "source('raw', 'customers')", field: 'id' } },
      { kind: 'other', name: 'relationships' },
    ],
    ['relationships without field', { relationships: { to: "ref('customers')" } }, { kind: 'other', name: 'relationships' }],
    ['accepted_values', { accepted_values: { values: ['a', 'b'] } }, { kind: 'other', name: 'accepted_values' }],
    ['a package test', 'dbt_utils.not_empty_string', { kind: 'other', name: 'dbt_utils.not_empty_string' }],
    [
      'a package test with arguments',
      { 'dbt_utils.accepted_range': { min_value: 0 } },
      { kind: 'other', name: 'dbt_utils.accepted_range' },
    ],
  ])('%s', async (_title, test, expected) => {
    expect((await columnOf({ data_tests: [test] })).tests).toEqual([expected]);
  });

  it('reads `tests:` (before dbt 1.8) like `data_tests:`', async () => {
    expect((await columnOf({ tests: ['unique', 'not_null'] })).tests).toEqual([{ kind: 'unique' }, { kind: 'not_null' }]);
  });
});

describe('column properties', () => {
  it.each([
    ['data_type', { data_type: 'numeric(10,2)' }, { dataType: 'numeric(10,2)' }],
    ['no data_type', {}, { dataType: null, description: null, tags: [], meta: {}, tests: [] }],
    ['description', { description: 'The key.' }, { description: 'The key.' }],
    ['an empty description', { description: '  ' }, { description: null }],
    ['a description with Jinja, kept as written', { description: "{{ doc('c') }}" }, { description: "{{ doc('c') }}" }],
    [
      'meta and tags',
      { meta: { measures: [{ type: 'sum' }] }, tags: ['primary_key'] },
      { meta: { measures: [{ type: 'sum' }] }, tags: ['primary_key'] },
    ],
    [
      'meta and tags under config (dbt 1.10)',
      { config: { meta: { pii: true }, tags: ['x'] }, tags: ['y'] },
      { meta: { pii: true }, tags: ['y', 'x'] },
    ],
  ])('%s', async (_title, column, expected) => {
    expect(await columnOf(column)).toMatchObject({ name: 'c', ...expected });
  });
});

describe('doc blocks', () => {
  it('replace the doc() references of descriptions, as the manifest has them', async () => {
    const dir = await writeTestProject({
      'dbt_project.yml': `${PROJECT_YML}docs-paths: [docs]\n`,
      'models/m.sql': 'select 1',
      'models/m.yml': {
        models: [
          {
            name: 'm',
            description: "{{ doc('m_table') }}",
            columns: [
              { name: 'a', description: 'See: {{ doc("shop", "a_col") }}' },
              { name: 'b', description: "{{ doc('missing') }}" },
            ],
          },
        ],
      },
      'models/docs.md': '{% docs m_table %}\n  The **m** table.\n{% enddocs %}\n',
      'docs/columns.md': '# Columns\n\n{%- docs a_col -%}\nColumn a.\n{%- enddocs -%}\n',
    });
    const [m] = (await readDbtProject(dir, '')).models;
    expect(m!.description).toBe('The **m** table.');
    expect(m!.columns.map((c) => c.description)).toEqual(['See: Column a.', "{{ doc('missing') }}"]);
  });
});

describe('where models are found', () => {
  it('reads model-paths, every .sql under them, .yml and .yaml properties, and a project in a folder', async () => {
    const dir = await writeTestProject({
      'analytics/dbt_project.yml': `${PROJECT_YML}model-paths: [transform, extra/]\n`,
      'analytics/transform/a.sql': 'select 1',
      'analytics/transform/deep/er/b.SQL': 'select 1',
      'analytics/transform/deep/props.yaml': { version: 2, models: [{ name: 'b', description: 'B.' }, { name: 'nowhere' }] },
      'analytics/extra/c.sql': 'select 1',
      'analytics/models/ignored.sql': 'select 1',
      'analytics/transform/notes.md': '# not a model',
      'dbt_project.yml': 'name: other\n',
    });
    const project = await readDbtProject(dir, 'analytics');
    expect(project.name).toBe('shop');
    expect(project.models.map((m) => [m.name, m.path, m.description])).toEqual([
      ['a', 'transform/a.sql', null],
      ['b', 'transform/deep/er/b.SQL', 'B.'],
      ['c', 'extra/c.sql', null],
    ]);
  });

  it('reads source-paths (before dbt 1.0)', async () => {
    const dir = await writeTestProject({ 'dbt_project.yml': `${PROJECT_YML}source-paths: [src]\n`, 'src/a.sql': 'select 1' });
    expect((await readDbtProject(dir, '')).models.map((m) => m.name)).toEqual(['a']);
  });

  it('reads a model whose Jinja it cannot follow by its name', async () => {
    const dir = await writeTestProject({
      'dbt_project.yml': PROJECT_YML,
      'models/m.sql': "{% set cols = adapter.get_columns_in_relation(ref('x')) %}{{ config(**cfg) }}select {{ cols | join(',') }}",
    });
    expect((await readDbtProject(dir, '')).models).toMatchObject([{ name: 'm', materialized: 'view', enabled: true }]);
  });
});
