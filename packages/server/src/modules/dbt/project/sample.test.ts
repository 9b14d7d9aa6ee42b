import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, DuckDBWarehouse, load, writeSample, type Caller, type DataModel } from '@plinth/semantic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleDbtProjectFiles, writeGeneratedDbtProject, writeSampleDbtProject } from './fixtures.js';
import { removeTestProjects, writeTestProject } from './testing.js';
import { generateCubes, readDbtProject } from './index.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const dirs: string[] = [];

async function project(write: (dir: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-dbt-'));
  dirs.push(dir);
  await write(dir);
  return dir;
}

function compiled(files: ReadonlyMap<string, string>): DataModel {
  const result = compile(files);
  expect(result.errors).toEqual([]);
  return result.model;
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await removeTestProjects();
});

describe('the sample dbt project on the DuckDB sample data', () => {
  let warehouse: DuckDBWarehouse;
  beforeAll(async () => {
    warehouse = await DuckDBWarehouse.open();
    await writeSample(warehouse, { lineItems: 2_000 });
  });
  afterAll(async () => {
    await warehouse?.close();
  });

  it.each([{ manifest: false }, { manifest: true }])(
    'builds its four cubes and answers load through the joins (manifest: $manifest)',
    async (options) => {
      const dbt = await readDbtProject(await project((d) => writeSampleDbtProject(d, options)), '');
      expect(dbt.source).toBe(options.manifest ? 'manifest' : 'files');
      const generated = generateCubes(dbt);
      expect(generated.cubes).toEqual(['customers', 'line_items', 'orders', 'products']);
      expect([...generated.files.keys()]).toEqual(['customers', 'line_items', 'orders', 'products'].map((c) => `model/dbt/${c}.yml`));
      expect(generated.skipped).toEqual([]);
      expect(generated.warnings).toEqual([]);
      const model = compiled(generated.files);
      // The description comes from a doc block, read from the files or rendered in the manifest.
      expect(model.cubes.get('orders')!.description).toBe('One row per order: what a customer bought, and when.');
      expect(model.cubes.get('orders')!.dimensions.get('id')!.description).toBe('The order.');

      const [byCountry, check] = await Promise.all([
        load(
          model,
          {
            measures: ['line_items.units', 'line_items.price_sum', 'orders.count'],
            dimensions: ['customers.country'],
            order: { 'customers.country': 'asc' },
          },
          { warehouse, caller: ADMIN },
        ),
        warehouse.query(
          `SELECT c.country, sum(li.quantity) AS units, count(DISTINCT o.id) AS orders
           FROM line_items li JOIN orders o ON o.id = li.order_id JOIN customers c ON c.id = o.customer_id
          GROUP BY 1 ORDER BY 1`,
          [],
        ),
      ]);
      const rows = byCountry.data as Array<Record<string, unknown>>;
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.map((r) => [r['customers.country'], Number(r['line_items.units'])])).toEqual(
        check.rows.map((r) => [r['country'], Number(r['units'])]),
      );

      const perCategory = await load(
        model,
        { measures: ['products.average_list_price', 'products.count'], dimensions: ['products.category'] },
        { warehouse, caller: ADMIN },
      );
      expect((perCategory.data as unknown[]).length).toBeGreaterThan(1);
      const byMonth = await load(
        model,
        { measures: ['orders.customers_count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }] },
        { warehouse, caller: ADMIN },
      );
      expect((byMonth.data as unknown[]).length).toBeGreaterThan(0);
    },
  );

  it('generates byte-identical files from the manifest and from the files', async () => {
    const fromFiles = generateCubes(await readDbtProject(await project((d) => writeSampleDbtProject(d)), ''));
    const fromManifest = generateCubes(await readDbtProject(await project((d) => writeSampleDbtProject(d, { manifest: true })), ''));
    expect(fromManifest.files).toEqual(fromFiles.files);
  });

  it('names the database in sql_table when the manifest has one', async () => {
    const dbt = await readDbtProject(await project((d) => writeSampleDbtProject(d, { manifest: true, database: 'memory' })), '');
    const generated = generateCubes(dbt);
    expect(generated.files.get('model/dbt/orders.yml')).toContain('sql_table: memory.main.orders\n');
    const model = compiled(generated.files);
    const answer = await load(model, { measures: ['orders.count'] }, { warehouse, caller: ADMIN });
    expect(Number((answer.data as Array<Record<string, unknown>>)[0]!['orders.count'])).toBeGreaterThan(0);
  });
});

describe('changes to the sample project, as a pull request would make them', () => {
  it('disabling a model that others reference breaks the build, naming it', async () => {
    const files = sampleDbtProjectFiles();
    files['models/marts/customers.sql'] = `{{ config(enabled=false) }}\n${files['models/marts/customers.sql']}`;
    const generated = generateCubes(await readDbtProject(await writeTestProject(files), ''));
    expect(generated.skipped).toEqual([{ model: 'customers', reason: 'disabled' }]);
    const result = compile(generated.files);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => `${e.fileName}: ${e.message}`).join('\n')).toMatch(/model\/dbt\/orders\.yml: .*customers/);
  });

  it('an unknown measure type fails generation, naming the model and column', async () => {
    const files = sampleDbtProjectFiles();
    files['models/marts/_models.yml'] = files['models/marts/_models.yml']!.replace('type: avg', 'type: median');
    const dbt = await readDbtProject(await writeTestProject(files), '');
    expect(() => generateCubes(dbt)).toThrow(
      'Model "products", column "price": unknown measure type "median"; expected one of avg, count, count_distinct, count_distinct_approx, max, min, sum',
    );
  });
});

describe('the generated benchmark project', () => {
  it('has 200 models whose cubes compile, with joins, ephemeral and disabled ones skipped', async () => {
    const dir = await project((d) => writeGeneratedDbtProject(d, 200));
    const dbt = await readDbtProject(dir, '');
    expect(dbt.models).toHaveLength(200);
    const generated = generateCubes(dbt);
    const reasons = new Set(generated.skipped.map((s) => s.reason));
    expect(reasons).toEqual(new Set(['ephemeral', 'disabled']));
    expect(generated.cubes.length + generated.skipped.length).toBe(200);
    const model = compiled(generated.files);
    expect(model.cubes.size).toBe(generated.cubes.length);
    const cube = model.cubes.get('model_0010')!;
    // model_0005 is ephemeral, so model_0010 joins its two nearest predecessors.
    expect([...cube.joins.keys()].sort()).toEqual(['model_0008', 'model_0009']);
    const joins = [...model.cubes.values()].flatMap((c) => [...c.joins.keys()]);
    expect(joins.length).toBeGreaterThan(300);
  });
});
