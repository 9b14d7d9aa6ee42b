import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { policyDeployment, type PolicyDeployment } from '../data-api/policies-test-credentials.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { databaseOf, TOKEN_USER } from './callers.js';
import { connect, listen } from './test-fixtures.js';

describeOnStores(
  "SQL API: a token's access policies apply",
  (server) => {
    let address: AddressInfo;
    let d: PolicyDeployment;
    beforeAll(async () => {
      address = await listen(server());
      d = await policyDeployment(server(), 'duckdb');
    });
    afterAll(async () => {
      await d?.warehouse.close();
    });

    const asToken = async (token: string) =>
      connect({ host: '127.0.0.1', port: address.port, database: databaseOf(d.deploymentId), user: TOKEN_USER, password: token });

    it('two embed users see their own rows, and the catalog shows only the members their group may see', async () => {
      const seen: Record<string, string[]> = {};
      for (const country of ['UK', 'France']) {
        const client = await asToken(await d.mint({ kind: 'embed', groups: ['sales'], country }));
        try {
          const { rows } = await client.query('SELECT country, MEASURE(count) AS n FROM customers GROUP BY 1 ORDER BY 1');
          seen[country] = rows.map((r) => r.country as string);
          const columns = await client.query(
            `SELECT column_name FROM information_schema.columns WHERE table_name = 'customers' AND column_name NOT LIKE '\\_\\_%' ORDER BY 1`,
          );
          expect(columns.rows.map((r) => r.column_name)).toEqual(['count', 'country', 'id', 'name']);
        } finally {
          await client.end();
        }
      }
      expect(seen).toEqual({ UK: ['UK'], France: ['France'] });
    });

    it("a data API token's security context decides its rows", async () => {
      const client = await asToken(await d.mint({ kind: 'data', securityContext: { country: 'UK' } }));
      try {
        const { rows } = await client.query('SELECT DISTINCT country FROM customers');
        expect(rows).toEqual([{ country: 'UK' }]);
      } finally {
        await client.end();
      }
    });
  },
  dataDirOverride(),
);
