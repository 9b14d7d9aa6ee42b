import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_PROJECT, writeSampleDbtProject } from './fixtures.js';
import { readDbtProject } from './index.js';
import { PROJECT_YML, removeTestProjects, writeTestProject } from './testing.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

afterAll(removeTestProjects);

const model = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  resource_type: 'model',
  name,
  unique_id: `model.shop.${name}`,
  database: 'warehouse',
  schema: 'analytics',
  alias: name,
  config: { materialized: 'table', enabled: true },
  original_file_path: `models/${name}.sql`,
  columns: {},
  ...extra,
});

const test = (
  id: string,
  name: string,
  attached: string | null,
  column: string,
  kwargs: object = {},
  extra: object = {},
): [string, object] => [
  id,
  {
    resource_type: 'test',
    unique_id: id,
    column_name: column,
    ...(attached ? { attached_node: attached } : {}),
    test_metadata: { name, kwargs: { column_name: column, ...kwargs } },
    config: { enabled: true },
    ...extra,
  },
];

async function fromManifest(manifest: object) {
  const dir = await writeTestProject({
    'dbt_project.yml': PROJECT_YML,
    'models/ignored.sql': 'select 1',
    'target/manifest.json': manifest,
  });
  return readDbtProject(dir, '');
}

describe('reading target/manifest.json', () => {
  it('gives the same models as the files it was compiled from', async () => {
    const [files, manifest] = await Promise.all(
      [false, true].map(async (withManifest) => {
        const dir = await mkdtemp(join(tmpdir(), 'plinth-dbt-test-'));
        await writeSampleDbtProject(dir, { manifest: withManifest });
        return readDbtProject(dir, '');
      }),
    );
    expect(manifest!.source).toBe('manifest');
    expect(files!.source).toBe('files');
    expect(manifest!.models).toEqual(files!.models);
    expect(files!.models.map((m) => m.name).sort()).toEqual(SAMPLE_PROJECT.models.map((m) => m.name).sort());
  });

  it('reads relations, configs, columns, disabled models, and tests attached to columns', async () => {
    const project = await fromManifest({
      metadata: { project_name: 'shop' },
      nodes: {
        'model.shop.orders': model('orders', {
          alias: 'fct_orders',
          description: 'Orders.',
          tags: ['a'],
          meta: { owner: 'x' },
          config: { materialized: 'incremental', enabled: true, tags: ['b'], meta: { tier: 1 } },
          columns: {
            ID: { name: 'ID', data_type: 'NUMBER(38,0)', description: '', meta: {}, tags: ['primary_key'] },
            customer_id: { name: 'customer_id', data_type: null, description: 'Who.', meta: { measures: [{ type: 'count_distinct' }] } },
          },
        }),
        'model.shop.stg': model('stg', { config: { materialized: 'ephemeral' }, database: null, schema: null }),
        'model.dbt_utils.helper': model('helper', { unique_id: 'model.dbt_utils.helper' }),
        'seed.shop.countries': { resource_type: 'seed', name: 'countries', unique_id: 'seed.shop.countries' },
        ...Object.fromEntries([
          test('test.shop.unique_orders_id', 'unique', 'model.shop.orders', 'ID'),
          test('test.shop.rel', 'relationships', 'model.shop.orders', 'customer_id', { to: "ref('customers')", field: 'id' }),
          // dbt before 1.5: no attached_node; the tested model is the dependency named in kwargs.model.
          test(
            'test.shop.old_rel',
            'relationships',
            null,
            'customer_id',
            { to: "ref('customers')", field: 'key', model: "{{ get_where_subquery(ref('orders')) }}" },
            {
              depends_on: { nodes: ['model.shop.customers', 'model.shop.orders'] },
            },
          ),
          test('test.shop.nn', 'not_null', null, 'id', {}, { depends_on: { nodes: ['model.shop.orders'] } }),
          test(
            'test.shop.range',
            'accepted_range',
            'model.shop.orders',
            'customer_id',
            {},
            { test_metadata: { name: 'accepted_range', namespace: 'dbt_utils', kwargs: {} } },
          ),
          test('test.shop.off', 'unique', 'model.shop.orders', 'customer_id', {}, { config: { enabled: false } }),
          test('test.shop.model_level', 'unique', 'model.shop.orders', 'ignored'),
        ]),
      },
      disabled: { 'model.shop.customers': [model('customers', { config: { enabled: false, materialized: 'table' } })] },
    });
    expect(project).toMatchObject({ name: 'shop', source: 'manifest' });
    expect(project.models.map((m) => [m.name, m.enabled, m.materialized])).toEqual([
      ['customers', false, 'table'],
      ['orders', true, 'incremental'],
      ['stg', true, 'ephemeral'],
    ]);
    const orders = project.models.find((m) => m.name === 'orders')!;
    expect(orders).toMatchObject({
      uniqueId: 'model.shop.orders',
      database: 'warehouse',
      schema: 'analytics',
      alias: 'fct_orders',
      description: 'Orders.',
      tags: ['a', 'b'],
      meta: { owner: 'x', tier: 1 },
      path: 'models/orders.sql',
    });
    expect(orders.columns).toEqual([
      {
        name: 'ID',
        dataType: 'NUMBER(38,0)',
        description: null,
        tags: ['primary_key'],
        meta: {},
        tests: [{ kind: 'unique' }, { kind: 'not_null' }],
      },
      {
        name: 'customer_id',
        dataType: null,
        description: 'Who.',
        tags: [],
        meta: { measures: [{ type: 'count_distinct' }] },
        tests: [
          { kind: 'relationships', to: 'customers', field: 'id' },
          { kind: 'relationships', to: 'customers', field: 'key' },
          { kind: 'other', name: 'dbt_utils.accepted_range' },
        ],
      },
    ]);
    expect(project.models.find((m) => m.name === 'stg')).toMatchObject({ database: null, schema: null, alias: 'stg' });
  });
});
