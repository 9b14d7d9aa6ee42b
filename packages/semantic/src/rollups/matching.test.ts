import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, loadRequest, type LoadResponse } from '../load.js';
import type { DataModel } from '../model.js';
import { planQuery } from '../planner/plan.js';
import { writeSample } from '../sample/sample.js';
import { BUILDS, CASES, type Build } from '../test-support/rollup-cases.js';
import { compileRollupModel } from '../test-support/rollup-model.js';
import { openRollupStore, type TestRollupStore } from '../test-support/rollup-store.js';
import { warehouseTargets, type ScratchWarehouse } from '../test-support/warehouses.js';
import type { AvailableRollup, RollupPartition } from './types.js';

describe.each(warehouseTargets({ schemaPrefix: 'semantic_rollups' }))('rollups answer as the warehouse on $name', (target) => {
  let db: ScratchWarehouse;
  let model: DataModel;
  let store: TestRollupStore;
  const built = new Map<Build, AvailableRollup>();
  beforeAll(async () => {
    db = await target.open();
    await writeSample(db.warehouse, { lineItems: 4000, schema: db.schema });
    model = compileRollupModel(db.table);
    store = await openRollupStore(model, db.warehouse);
    for (const [name, build] of Object.entries(BUILDS)) {
      const options = {
        ...('timezone' in build ? { timezone: build.timezone } : {}),
        ...('only2023' in build
          ? { partitions: (all: RollupPartition[]) => all.filter((partition) => partition.start.startsWith('2023')) }
          : {}),
      };
      built.set(
        name as Build,
        'inWarehouse' in build ? await store.buildInWarehouse(build.id, db.table(build.inWarehouse)) : await store.build(build.id, options),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  it.each(CASES)('$rule', async ({ offer, query, answers: expectedAnswer, answersOnlyOn, caller: who, same }) => {
    const answers = answersOnlyOn && answersOnlyOn !== target.name ? undefined : expectedAnswer;
    const rollups = offer.map((name) => built.get(name) as AvailableRollup);
    const plan = planQuery(model, query, { dialect: db.warehouse.dialect, rollups, cache: false, ...(who ? { caller: who } : {}) });
    const warehouse = await load(model, same ?? query, { warehouse: db.warehouse, ...(who ? { caller: who } : {}) });
    if (!answers) {
      expect(plan.rollup).toBeUndefined();
      expect(plan.usedPreAggregations).toEqual({});
      expect(planQuery(model, query, { dialect: db.warehouse.dialect, rollups, ...(who ? { caller: who } : {}) }).rollup).toBeUndefined();
      return;
    }
    const expected = built.get(answers) as AvailableRollup;
    expect(plan.rollup).toEqual({
      id: expected.id,
      tableName: expected.id.replace('.', '_'),
      versions: expected.versions,
      ...(expected.inWarehouse ? { inWarehouse: true } : {}),
    });
    const key = `prod_pre_aggregations.${expected.id.replace('.', '_')}`;
    expect(Object.keys(plan.usedPreAggregations)).toEqual([key]);
    expect(plan.usedPreAggregations[key]).toMatchObject({
      type: expected.id === 'line_items.with_orders' ? 'rollupJoin' : 'rollup',
      refreshKeyValues: expected.versions,
    });
    expect(plan.sql).toContain(expected.from);
    // As the data API loads: the engine plans again, and runs the plan where the rollup is.
    const fromRollup = (await loadRequest(model, query, {
      warehouse: db.warehouse,
      rollupStore: store.duckdb,
      rollups,
      ...(who ? { caller: who } : {}),
    })) as LoadResponse;
    expect(fromRollup.usedPreAggregations).toEqual(plan.usedPreAggregations);
    const rollupRows = fromRollup.data as Array<Record<string, unknown>>;
    const warehouseRows = warehouse.data as Array<Record<string, unknown>>;
    expect(warehouseRows.length).toBeGreaterThan(0);
    expect(comparable(rollupRows, !query.order)).toEqual(comparable(warehouseRows, !query.order));
    expect(fromRollup.total).toEqual(warehouse.total);
  });
});

/**
 * Rows as lists of values, numbers to 12 significant digits: an average is a double in DuckDB, and
 * dividing a merged sum by a merged count may differ from the warehouse's own division in the last bits.
 */
function comparable(rows: ReadonlyArray<Record<string, unknown>>, sorted: boolean): string[] {
  const lines = rows.map((row) =>
    JSON.stringify(
      Object.values(row).map((value) =>
        typeof value === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(value) ? Number(Number(value).toPrecision(12)) : value,
      ),
    ),
  );
  return sorted ? lines.sort() : lines;
}
