import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { asToken, dataDirOverride } from '../data-api/test-fixtures.js';
import { connect, listen, sqlDeployment } from './test-fixtures.js';

describeOnStores(
  'SQL API over node-postgres',
  (server) => {
    let address: AddressInfo;
    let set: Awaited<ReturnType<typeof sqlDeployment>>;
    beforeAll(async () => {
      address = await listen(server());
      set = await sqlDeployment(server(), address);
    });

    it('answers a query over a cube with the data API answer, as the environment SQL user (SCRAM)', async () => {
      const client = await connect(set.login);
      try {
        const result = await client.query('SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1');
        expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
          ['status', 25],
          ['n', 20],
        ]);
        const load = (await server().services.dataApi.load(...asToken(set.principal), {
          measures: ['orders.count'],
          dimensions: ['orders.status'],
          order: [['orders.status', 'asc']],
        })) as { data: Array<Record<string, unknown>> };
        expect(result.rows.map((r) => [r.status, String(r.n)])).toEqual(
          load.data.map((r) => [r['orders.status'], String(r['orders.count'])]),
        );
      } finally {
        await client.end();
      }
    });
  },
  dataDirOverride(),
);
