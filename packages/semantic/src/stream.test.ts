import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryTimeoutError } from './errors.js';
import { load } from './load.js';
import type { Caller } from './model.js';
import { streamLoad } from './stream.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const REGIONAL: Caller = { groups: ['regional'], userAttributes: { country: 'France' }, securityContext: {} };

const gather = async <T>(batches: AsyncIterable<T[]>) => {
  const rows: T[] = [];
  let count = 0;
  for await (const batch of batches) {
    count += 1;
    rows.push(...batch);
  }
  return { rows, batches: count };
};

describe.each(sampleTargets())('streamLoad on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const ITEMS = { dimensions: ['line_items.id'], order: [['line_items.id', 'asc']] };

  it('answers the rows load answers, in batches, without the data API row limit', async () => {
    const streamed = await gather(streamLoad(db.model, ITEMS, { warehouse: db.warehouse, caller: ADMIN, batchRows: 1000 }).rows);
    const loaded = await load(db.model, { ...ITEMS, limit: 50_000 }, { warehouse: db.warehouse, caller: ADMIN });
    expect(streamed.rows).toHaveLength(20_000);
    expect(streamed.rows).toEqual(loaded.data);
    expect(streamed.batches).toBeGreaterThan(1);
    const limited = await gather(streamLoad(db.model, { ...ITEMS, limit: 60_000, offset: 19_990 }, { warehouse: db.warehouse }).rows);
    expect(limited.rows).toEqual(loaded.data.slice(19_990));
  });

  it("applies the caller's access policies as load does", async () => {
    const hidden = { dimensions: ['customers.email'] };
    await expect(load(db.model, hidden, { warehouse: db.warehouse, caller: REGIONAL })).rejects.toThrow();
    expect(() => streamLoad(db.model, hidden, { warehouse: db.warehouse, caller: REGIONAL })).toThrow();
    const streamed = await gather(streamLoad(db.model, hidden, { warehouse: db.warehouse, caller: ADMIN }).rows);
    expect(streamed.rows).toEqual((await load(db.model, hidden, { warehouse: db.warehouse, caller: ADMIN })).data);
  });

  it('an early end and an abort release the warehouse: the next stream and query are answered', async () => {
    for await (const batch of streamLoad(db.model, ITEMS, { warehouse: db.warehouse, batchRows: 100 }).rows) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    const controller = new AbortController();
    const aborted = streamLoad(db.model, ITEMS, { warehouse: db.warehouse, batchRows: 100, signal: controller.signal }).rows;
    const reading = (async () => {
      for await (const batch of aborted) {
        expect(batch.length).toBeGreaterThan(0);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(QueryTimeoutError);
    expect((await gather(streamLoad(db.model, { ...ITEMS, limit: 3 }, { warehouse: db.warehouse }).rows)).rows).toHaveLength(3);
    expect((await load(db.model, { ...ITEMS, limit: 3 }, { warehouse: db.warehouse })).data).toHaveLength(3);
  });

  it('refuses a limit that is not a non-negative integer and a compact response', () => {
    expect(() => streamLoad(db.model, { ...ITEMS, limit: -1 }, { warehouse: db.warehouse })).toThrow(/non-negative integer/);
    expect(() => streamLoad(db.model, { ...ITEMS, responseFormat: 'compact' }, { warehouse: db.warehouse })).toThrow(/compact/);
  });
});
