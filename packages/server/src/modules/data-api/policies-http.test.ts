import cube from '@cubejs-client/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { policyDeployment, type Credential, type PolicyDeployment } from './policies-test-credentials.js';
import { expectations, PERSONAS, textRows, type Persona } from './policies-test-personas.js';
import { dataDirOverride } from './test-fixtures.js';

/** One persona per credential kind: a data API token, an environment token, an embed token. */
const KINDS: Persona[] = (['data', 'environment', 'embed'] as Credential['kind'][]).map((kind) =>
  PERSONAS.find((p) => p.credential.kind === kind && p.sees.customers?.country)!,
);

/**
 * The same rules over a real socket, as a curl user and Cube's own client reach the data API: the
 * deployment's account answers on 127.0.0.1 (its custom domain here), since neither fetch nor
 * @cubejs-client/core lets a caller choose the Host header.
 */
describeOnStores(
  'access policies over HTTP: fetch (as curl) and @cubejs-client/core',
  (server) => {
    let d: PolicyDeployment;
    let apiUrl = '';
    beforeAll(async () => {
      d = await policyDeployment(server(), 'duckdb');
      await server().store.db.updateTable('account').set({ custom_domain: '127.0.0.1' }).where('id', '=', d.account.id).execute();
      server().services.accounts.forgetAll();
      await server().app.listen({ port: 0, host: '127.0.0.1' });
      const address = server().app.server.address();
      apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${d.base}`;
    });
    afterAll(async () => {
      // Cube's client and fetch keep their connections alive: app.close would wait for them to idle out.
      server().app.server.closeAllConnections();
      await d?.warehouse.close();
    });

    it.each(KINDS)('fetch, GET with the query URL-encoded as curl sends it: $name', async ({ credential, sees }) => {
      const token = await d.mint(credential);
      for (const { query, truth } of expectations(sees)) {
        const response = await fetch(`${apiUrl}/load?query=${encodeURIComponent(JSON.stringify(query))}`, {
          headers: { authorization: token },
        });
        const body = (await response.json()) as { data: Array<Record<string, unknown>>; error?: string };
        if (!truth) {
          expect([response.status, body.error]).toEqual([400, expect.stringMatching(/hidden member/)]);
          continue;
        }
        expect(response.status, JSON.stringify(body)).toBe(200);
        expect(textRows(body.data)).toEqual(await d.warehouse.truth(truth));
      }
      const meta = await fetch(`${apiUrl}/meta`, { headers: { authorization: `Bearer ${token}` } });
      const names = ((await meta.json()) as { cubes: Array<{ name: string }> }).cubes.map((c) => c.name).sort();
      expect(names).toEqual(['customers', 'orders', ...(sees.myOrders === null ? [] : ['my_orders'])].sort());
    });

    it.each(KINDS)('@cubejs-client/core load, meta and sql: $name', async ({ credential, sees }) => {
      const api = cube(await d.mint(credential), { apiUrl });
      const [customers, orders] = expectations(sees);
      const result = await api.load(customers!.query as never);
      expect(textRows(result.rawData())).toEqual(await d.warehouse.truth(customers!.truth!));
      const counts = await api.load(orders!.query as never);
      expect(textRows(counts.rawData())).toEqual(await d.warehouse.truth(orders!.truth!));

      const meta = await api.meta();
      const members = meta.meta.cubes.find((c) => c.name === 'customers')!;
      expect([...members.measures, ...members.dimensions].map((m) => m.name).sort()).toEqual(sees.customers!.members);
      const sql = await api.sql(customers!.query as never);
      expect(sql.rawQuery().sql[1]).toContain(sees.customers!.country);

      const hidden = await api.load({ measures: ['products.count'] }).catch((error: Error) => error);
      expect(hidden).toBeInstanceOf(Error);
      expect((hidden as Error).message).toMatch(/hidden member: 'products__count'/);
    });
  },
  dataDirOverride(),
);
