import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { policyDeployment, type PolicyDeployment } from './policies-test-credentials.js';
import { warehouseKinds } from './policies-fixtures.js';
import { expectations, PERSONAS, textRows } from './policies-test-personas.js';
import { dataDirOverride } from './test-fixtures.js';

const HIDDEN = /You requested hidden member/;

describeOnStores(
  'access policies through every credential kind',
  (server) => {
    describe.each(warehouseKinds)('on a %s warehouse', (kind) => {
      let d: PolicyDeployment;
      beforeAll(async () => {
        d = await policyDeployment(server(), kind);
      });
      afterAll(async () => d?.warehouse.close());

      it.each(PERSONAS)('$name sees exactly its rows and members on /load, /meta and /sql', async ({ credential, sees }) => {
        const token = await d.mint(credential);
        const call = (verb: string, query?: unknown) =>
          d.account.request({ method: query ? 'POST' : 'GET', url: `${d.base}/${verb}`, as: token, body: query ? { query } : undefined });

        const meta = await call('meta');
        expect(meta.status, meta.text).toBe(200);
        const cubes = new Map<string, { measures: { name: string }[]; dimensions: { name: string }[] }>(
          meta.body.cubes.map((c: { name: string }) => [c.name, c]),
        );
        const customers = cubes.get('customers');
        const members = customers && [...customers.measures, ...customers.dimensions].map((m) => m.name).sort();
        expect(members ?? null).toEqual(sees.customers?.members ?? null);
        expect(cubes.has('my_orders')).toBe(sees.myOrders !== null);
        expect(cubes.has('products')).toBe(sees.products !== null);

        for (const { query, truth } of expectations(sees)) {
          const load = await call('load', query);
          if (!truth) {
            expect([load.status, load.body.error], `${JSON.stringify(query)} must be hidden`).toEqual([400, expect.stringMatching(HIDDEN)]);
            continue;
          }
          expect(load.status, load.text).toBe(200);
          const expected = await d.warehouse.truth(truth);
          expect(expected.length, 'the sample must hold rows for this persona').toBeGreaterThan(0);
          expect(textRows(load.body.data), JSON.stringify(query)).toEqual(expected);
        }

        // Members a policy leaves out of member_level are refused by name, not silently dropped.
        const hiddenMembers = ['customers.email', 'customers.segment'].filter((m) => sees.customers && !sees.customers.members.includes(m));
        for (const member of hiddenMembers) {
          const load = await call('load', { dimensions: [member] });
          expect([load.status, load.body.error]).toEqual([400, expect.stringMatching(HIDDEN)]);
        }

        // /sql shows the policy's filter value as a parameter of the SQL the load ran; /dry-run refuses what load refuses.
        const sql = await call('sql', expectations(sees)[0]!.query);
        const dryRun = await call('dry-run', expectations(sees)[0]!.query);
        expect(dryRun.status, dryRun.text).toBe(sql.status);
        if (!sees.customers) expect([sql.status, sql.body.error]).toEqual([400, expect.stringMatching(HIDDEN)]);
        else {
          expect(sql.status, sql.text).toBe(200);
          const [text, params] = sql.body.sql.sql as [string, unknown[]];
          if (sees.customers.country) expect(params).toContain(sees.customers.country);
          else expect(text).not.toMatch(/country\s*=/i);
        }
      });

      it('the same query at once under two security contexts: each caller gets its own rows, never the other’s cached ones', async () => {
        const query = { dimensions: ['customers.id', 'customers.country'], order: { 'customers.id': 'asc' }, limit: 5000 };
        const countries = ['UK', 'France', 'UK', 'France'];
        const tokens = await Promise.all(countries.map((country) => d.mint({ kind: 'data', securityContext: { country } })));
        const answers = await Promise.all(
          tokens.map((token) => d.account.request({ method: 'POST', url: `${d.base}/load`, as: token, body: { query } })),
        );
        for (const [i, answer] of answers.entries()) {
          expect(answer.status, answer.text).toBe(200);
          const rows = answer.body.data as Array<Record<string, unknown>>;
          expect(rows.length).toBeGreaterThan(0);
          expect(new Set(rows.map((row) => row['customers.country']))).toEqual(new Set([countries[i]]));
        }
      });

      it('data API and environment tokens of another deployment are refused with Cube’s 403', async () => {
        const other = await server().services.deployments.create(d.account.id, { name: 'another' }, 'http://localhost');
        for (const credential of [
          { kind: 'data' as const, securityContext: { country: 'UK' } },
          { kind: 'environment' as const, securityContext: { country: 'UK' } },
        ]) {
          const token = await d.mint(credential, other.id);
          const response = await d.account.request({ method: 'GET', url: `${d.base}/meta`, as: token });
          expect([response.status, response.body]).toEqual([403, { error: 'Invalid token' }]);
        }
      });

      it('an embed token is refused once its session is revoked, and on another deployment', async () => {
        const { sessionId, token } = await d.embedSession({ externalId: 'revoked', groups: ['sales'] });
        const before = await d.account.request({ method: 'GET', url: `${d.base}/meta`, as: token });
        expect(before.status, before.text).toBe(200);
        const revoked = await d.account.request({ method: 'POST', url: '/api/v1/embed/session/revoke', body: { sessionId } });
        expect(revoked.status, revoked.text).toBeLessThan(300);
        const after = await d.account.request({
          method: 'POST',
          url: `${d.base}/load`,
          as: token,
          body: { query: { measures: ['customers.count'] } },
        });
        expect([after.status, after.body]).toEqual([403, { error: 'Invalid token' }]);

        const other = await server().services.deployments.create(d.account.id, { name: 'other' }, 'http://localhost');
        const elsewhere = await d.account.generate({ externalId: 'elsewhere', groups: ['admin'], deploymentId: other.id });
        expect(elsewhere.status, elsewhere.text).toBe(200);
        const exchanged = await d.account.request({
          method: 'POST',
          url: '/api/v1/embed/session/token',
          body: { sessionId: elsewhere.body.sessionId },
        });
        for (const verb of ['meta', 'load', 'sql']) {
          const response = await d.account.request({
            method: verb === 'meta' ? 'GET' : 'POST',
            url: `${d.base}/${verb}`,
            as: exchanged.body.token,
            body: verb === 'meta' ? undefined : { query: { measures: ['orders.count'] } },
          });
          expect([response.status, response.body]).toEqual([403, { error: 'Invalid token' }]);
        }
      });
    });
  },
  dataDirOverride(),
);
