import {
  fixtureFiles,
  writeFixtureProject,
  type FixtureColumn,
  type FixtureModel,
  type FixtureOptions,
  type FixtureProject,
} from './fixture-writer.js';

export type { FixtureOptions, FixtureProject } from './fixture-writer.js';

/**
 * A dbt project over the tables `writeSample` of @plinth/semantic creates in DuckDB (customers,
 * products, orders, line_items, in the default schema `main`): four models with properties,
 * tests, relationships and measures declared in `meta.measures`. Its cubes build and answer
 * `load` on the sample data. With `manifest`, also the `target/manifest.json` dbt would write
 * (database null, as the DuckDB catalog name depends on the warehouse file; pass one to set it).
 */
export async function writeSampleDbtProject(dir: string, options: FixtureOptions = {}): Promise<void> {
  await writeFixtureProject(dir, SAMPLE_PROJECT, options);
}

/** The sample project's files (path → text), for a test Git repository (`createGitRepo(files)`). */
export function sampleDbtProjectFiles(options: FixtureOptions = {}): Record<string, string> {
  return fixtureFiles(SAMPLE_PROJECT, options);
}

const id = (description: string): FixtureColumn => ({ name: 'id', dataType: 'integer', description, tests: ['unique', 'not_null'] });

export const SAMPLE_PROJECT: FixtureProject = {
  name: 'shop',
  projectYaml: {
    name: 'shop',
    version: '1.0.0',
    'config-version': 2,
    profile: 'shop',
    'model-paths': ['models'],
    'macro-paths': ['macros'],
    models: { shop: { '+materialized': 'view', '+schema': 'main', marts: { '+materialized': 'table' } } },
  },
  docs: { orders: 'One row per order: what a customer bought, and when.', order_id: 'The order.' },
  extra: {
    // The usual override: a custom schema is used as it is, not appended to the target's schema.
    'macros/generate_schema_name.sql': `{% macro generate_schema_name(custom_schema_name, node) -%}
  {{ custom_schema_name if custom_schema_name else target.schema }}
{%- endmacro %}
`,
    'README.md': '# shop\n\nThe sample shop, modelled in dbt.\n',
  },
  models: [
    {
      name: 'customers',
      folder: 'marts',
      materialized: 'table',
      schema: 'main',
      sql: "select id, name, email, city, country, segment, created_at\nfrom {{ source('raw', 'customers') }}\n",
      description: 'People who placed orders.',
      columns: [
        id('The customer.'),
        { name: 'name', dataType: 'varchar' },
        { name: 'email', dataType: 'varchar', description: 'Contact address.' },
        { name: 'city', dataType: 'varchar' },
        { name: 'country', dataType: 'varchar' },
        { name: 'segment', dataType: 'varchar', tests: [{ accepted_values: { values: ['consumer', 'corporate', 'home_office'] } }] },
        { name: 'created_at', description: 'When the customer signed up.' },
      ],
    },
    {
      name: 'products',
      folder: 'marts',
      materialized: 'table',
      schema: 'main',
      sql: "{{ config(materialized='table', tags=['catalog']) }}\nselect id, name, category, price from {{ source('raw', 'products') }}\n",
      description: 'What the shop sells.',
      tags: ['catalog'],
      columns: [
        { ...id('The product.'), tests: undefined, tags: ['primary_key'] },
        { name: 'name', dataType: 'varchar' },
        { name: 'category', dataType: 'varchar' },
        { name: 'price', dataType: 'decimal(10,2)', meta: { measures: [{ name: 'average_list_price', type: 'avg' }] } },
      ],
    },
    {
      name: 'orders',
      folder: 'marts',
      materialized: 'table',
      schema: 'main',
      sql: "select id, customer_id, status, created_at\nfrom {{ source('raw', 'orders') }}\n",
      description: "{{ doc('orders') }}",
      columns: [
        id("{{ doc('order_id') }}"),
        {
          name: 'customer_id',
          dataType: 'integer',
          tests: ['not_null', { relationships: { to: "ref('customers')", field: 'id' } }],
          meta: { measures: [{ name: 'customers_count', type: 'count_distinct' }] },
        },
        {
          name: 'status',
          dataType: 'varchar',
          tests: [{ accepted_values: { values: ['completed', 'processing', 'shipped', 'cancelled', 'returned'] } }],
        },
        { name: 'created_at', dataType: 'timestamp' },
      ],
    },
    {
      name: 'line_items',
      folder: 'marts',
      materialized: 'table',
      schema: 'main',
      sql: "select id, order_id, product_id, quantity, price\nfrom {{ source('raw', 'line_items') }}\n",
      description: 'Products on an order.',
      columns: [
        id('The line.'),
        // dbt 1.10's form: the test's arguments under `arguments:`.
        { name: 'order_id', dataType: 'integer', tests: [{ relationships: { arguments: { to: "ref('orders')", field: 'id' } } }] },
        { name: 'product_id', dataType: 'integer', tests: [{ relationships: { to: "ref('products')", field: 'id' } }] },
        { name: 'quantity', dataType: 'integer', meta: { measures: [{ name: 'units', type: 'sum' }] } },
        { name: 'price', dataType: 'decimal(10,2)', meta: { measures: [{ type: 'sum' }, { type: 'max' }] } },
      ],
    },
  ] satisfies FixtureModel[],
};

/**
 * A project of `models` models for the benchmark, shaped like a real warehouse project: staging
 * views feeding marts tables, 8–14 typed columns each, unique/not_null keys, relationships from
 * each model to up to two earlier ones, a few ephemeral and disabled models, and declared measures.
 */
export async function writeGeneratedDbtProject(dir: string, models: number): Promise<void> {
  await writeFixtureProject(dir, generatedProject(models));
}

/** The benchmark project's files (path → text), for a test Git repository. */
export function generatedDbtProjectFiles(models: number): Record<string, string> {
  return fixtureFiles(generatedProject(models));
}

const ephemeral = (i: number): boolean => i % 37 === 5;
const disabled = (i: number): boolean => i % 53 === 7;
const becomesCube = (i: number): boolean => !ephemeral(i) && !disabled(i);

export function generatedProject(count: number): FixtureProject {
  const models: FixtureModel[] = [];
  for (let i = 0; i < count; i++) {
    const name = `model_${String(i).padStart(4, '0')}`;
    const staging = i % 4 === 0;
    const materialized = ephemeral(i) ? 'ephemeral' : staging ? 'view' : 'table';
    const columns: FixtureColumn[] = [{ name: 'id', dataType: 'bigint', description: `The ${name} row.`, tests: ['unique', 'not_null'] }];
    // Relationships point only at models that become cubes, so the benchmark's build succeeds.
    const parents = [i - 1, i - 2, Math.floor(i / 2)].filter((p, k, all) => p >= 0 && p !== i && all.indexOf(p) === k && becomesCube(p));
    for (const parent of parents.slice(0, 2)) {
      const target = `model_${String(parent).padStart(4, '0')}`;
      columns.push({
        name: `${target}_id`,
        dataType: 'bigint',
        tests: ['not_null', { relationships: { to: `ref('${target}')`, field: 'id' } }],
      });
    }
    const extra = 8 + (i % 7);
    for (let c = 0; c < extra; c++) {
      const kind = c % 5;
      if (kind === 0)
        columns.push({
          name: `amount_${c}`,
          dataType: 'numeric(18,2)',
          meta: { measures: [{ type: 'sum' }, { name: `amount_${c}_avg`, type: 'avg' }] },
        });
      else if (kind === 1) columns.push({ name: `label_${c}`, dataType: 'varchar', description: `Label ${c}.` });
      else if (kind === 2) columns.push({ name: `happened_${c}_at`, dataType: 'timestamp' });
      else if (kind === 3) columns.push({ name: `is_flag_${c}` });
      else columns.push({ name: `units_${c}`, tests: [{ accepted_values: { values: [1, 2, 3] } }] });
    }
    models.push({
      name,
      folder: staging ? 'staging' : `marts/area_${i % 10}`,
      materialized,
      schema: 'analytics',
      enabled: !disabled(i),
      sql: `${materialized === 'ephemeral' ? "{{ config(materialized='ephemeral') }}\n" : ''}${disabled(i) ? '{{ config(enabled=false) }}\n' : ''}select * from {{ source('raw', '${name}') }}\n`,
      description: `Generated model ${i}.`,
      columns,
    });
  }
  return {
    name: 'bench',
    projectYaml: {
      name: 'bench',
      version: '1.0.0',
      'config-version': 2,
      profile: 'bench',
      models: { bench: { '+schema': 'analytics', staging: { '+materialized': 'view' }, marts: { '+materialized': 'table' } } },
    },
    models,
  };
}
