import { compile, duckdbDialect, fanOut, planFannedOut, sampleModelFiles, type QueryPlan } from '@plinth/semantic';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { refreshSlots } from './refresh-cap.js';
import type { DataApiService } from './service.js';
import { asToken, dataDirOverride, sampleDeployment, serviceOn } from './test-fixtures.js';

/**
 * The sample model with `refresh_key.every` on orders (30 s) and products (an hour); line_items has
 * none, and customers has `customersEvery` if given.
 */
function cappedModelFiles(customersEvery?: string): Record<string, string> {
  const files = sampleModelFiles();
  const yaml = files['model/sample.yml']!;
  const withKey = (cube: string, every: string, text: string) => {
    const at = text.indexOf(`\n  - name: ${cube}\n`);
    if (at < 0) throw new Error(`no cube ${cube} in the sample model`);
    const line = text.indexOf('\n', at + 1) + 1;
    return `${text.slice(0, line)}    refresh_key: { every: ${every} }\n${text.slice(line)}`;
  };
  const capped = withKey('products', '1 hour', withKey('orders', '30 second', yaml));
  return { 'model/sample.yml': customersEvery ? withKey('customers', customersEvery, capped) : capped };
}

const ordersCount = { measures: ['orders.count'] };
const customersCount = { measures: ['customers.count'] };
const customersByStatus = { measures: ['customers.count'], dimensions: ['orders.status'] };

describe('the result cache’s refresh_key cap', () => {
  const compiled = compile(cappedModelFiles());
  const model = compiled.model;
  const now = new Date();
  const plans = (request: unknown): QueryPlan[] => planFannedOut(model, fanOut(request, now), { dialect: duckdbDialect, now });
  /** The cubes whose every keys a request's answer (orders every 30 s, products every hour, customers none). */
  const keyed = (request: unknown, of: QueryPlan[] = plans(request)) =>
    (refreshSlots(model, of, 0) ?? []).map((slot) => slot.split(':')[0]);

  it('is keyed by the every of each cube a query reads, and by none for cubes without one', () => {
    expect(compiled.errors).toEqual([]);
    expect(keyed(ordersCount)).toEqual(['orders']);
    expect(keyed(customersCount)).toEqual([]);
    expect(keyed({ measures: ['line_items.count'] })).toEqual([]);
    expect(keyed({ measures: ['line_items.count'], dimensions: ['products.category'] })).toEqual(['products']);
    expect(keyed(customersByStatus)).toEqual(['orders']);
    expect(keyed({ measures: ['line_items.count'], dimensions: ['products.category', 'orders.status'] })).toEqual(['orders', 'products']);
  });

  it('reads through a view to the cubes it reaches, and takes the shortest over a blended request', () => {
    expect(keyed({ measures: ['sales.count'] })).toEqual([]);
    expect(keyed({ measures: ['sales.count'], dimensions: ['sales.products_category'] })).toEqual(['products']);
    expect(keyed({ measures: ['sales.orders_count'] })).toEqual(['orders']);
    const yearly = (cube: string) => ({
      measures: [`${cube}.count`],
      timeDimensions: [{ dimension: `${cube}.created_at`, granularity: 'year' }],
    });
    expect(keyed([yearly('customers'), yearly('orders')])).toEqual(['orders']);
    expect(keyed([yearly('customers'), { ...yearly('customers'), dimensions: ['customers.city'] }])).toEqual([]);
  });

  it('leaves out a plan a rollup answers, whose partition versions key its answer', () => {
    const [plan] = plans(ordersCount);
    const fromRollup: QueryPlan = { ...plan!, rollup: { id: 'orders.by_status', tableName: 'orders_by_status', versions: ['v1'] } };
    expect(keyed(null, [fromRollup])).toEqual([]);
    expect(keyed(null, [fromRollup, ...plans(customersByStatus)])).toEqual(['orders']);
  });

  it('keys an answer by the slot of each cube read: it moves once an every has passed, never for a query without one', () => {
    const at = Date.UTC(2026, 0, 1, 12, 0, 5);
    const slots = (request: unknown, ms: number) => refreshSlots(model, plans(request), at + ms);
    expect(slots(ordersCount, 0)).toEqual([`orders:every:${Math.floor(at / 30_000)}`]);
    expect(slots(ordersCount, 20_000)).toEqual(slots(ordersCount, 0));
    expect(slots(ordersCount, 30_000)).not.toEqual(slots(ordersCount, 0));
    expect(slots(customersCount, 0)).toBeNull();
    expect(slots(customersCount, 3_600_000)).toBeNull();
    const joined = { measures: ['line_items.count'], dimensions: ['products.category', 'orders.status'] };
    expect(slots(joined, 0)).toEqual([`orders:every:${Math.floor(at / 30_000)}`, `products:every:${Math.floor(at / 3_600_000)}`]);
  });

  it('takes a cron every as its next run', () => {
    const hourly = compile(cappedModelFiles('"0 * * * *"'));
    expect(hourly.errors).toEqual([]);
    const at = Date.UTC(2026, 0, 1, 12, 10);
    const slots = (ms: number) =>
      refreshSlots(hourly.model, planFannedOut(hourly.model, fanOut(customersCount, now), { dialect: duckdbDialect, now }), at + ms);
    expect(slots(0)).toEqual(['customers:cron:2026-01-01T13:00:00.000Z']);
    expect(slots(49 * 60_000)).toEqual(slots(0));
    expect(slots(50 * 60_000)).toEqual(['customers:cron:2026-01-01T14:00:00.000Z']);
  });
});

describeOnStores(
  'data API result cache capped by the cubes a query reads',
  (server) => {
    const services: DataApiService[] = [];
    afterAll(async () => {
      for (const service of services) await service.close();
    });

    it('a query of a cube with every is read again once it passed; one of a cube without is served from the cache', async () => {
      const service = serviceOn(server());
      services.push(service);
      const { principal } = await sampleDeployment(server(), service, cappedModelFiles());
      const on = asToken(principal);
      const refreshedAt = async (query: unknown) => ((await service.load(...on, query)) as { lastRefreshTime: string }).lastRefreshTime;
      const queries = { orders: ordersCount, customers: customersCount, joined: customersByStatus };
      const first = Object.fromEntries(await Promise.all(Object.entries(queries).map(async ([name, q]) => [name, await refreshedAt(q)])));
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        // Past orders' 30 seconds, well within the result cache's own lifetime.
        vi.setSystemTime(Date.now() + 31_000);
        expect(await refreshedAt(customersCount)).toBe(first['customers']);
        expect(await refreshedAt(ordersCount)).not.toBe(first['orders']);
        expect(await refreshedAt(customersByStatus)).not.toBe(first['joined']);
      } finally {
        vi.useRealTimers();
      }
    });
  },
  dataDirOverride(),
);
