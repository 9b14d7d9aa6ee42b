import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { CATALOG_QUERIES } from './catalog-queries.js';
import { connect, listen, sqlDeployment } from './test-fixtures.js';

describeOnStores(
  'SQL API: the catalog queries BI tools send',
  (server) => {
    let address: AddressInfo;
    let client: pg.Client;
    beforeAll(async () => {
      address = await listen(server());
      const set = await sqlDeployment(server(), address);
      client = await connect(set.login);
    });
    afterAll(async () => {
      await client?.end();
    });

    // Each over the simple protocol when it has no parameter (as tools send those), else the extended one.
    it.each(CATALOG_QUERIES)('$tool', async ({ sql, params }) => {
      const result = params ? await client.query(sql, params) : await client.query(sql);
      expect(result).toBeDefined();
      if (/columns|get_columns/i.test(sql) && params?.[0] === 'orders') {
        const rows = (Array.isArray(result) ? result.at(-1) : result) as pg.QueryResult;
        expect(rows.rowCount).toBeGreaterThan(0);
      }
    });

    it('the public schema holds the visible cubes and views only', async () => {
      const { rows } = await client.query(
        `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' ORDER BY 1`,
      );
      expect(rows.map((r) => r.relname)).toEqual(expect.arrayContaining(['orders']));
    });
  },
  dataDirOverride(),
);
