import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeOnStores, type TestUser } from '../../test-support/server.js';
import { policyDeployment, type PolicyDeployment } from '../data-api/policies-test-credentials.js';
import { warehouseKinds } from '../data-api/policies-fixtures.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { capped, refreshReport } from './refresh.js';

const CUSTOMERS = JSON.stringify({ dimensions: ['customers.id', 'customers.country'], order: { 'customers.id': 'asc' }, limit: 5000 });

describe('snapshot cap', () => {
  it('keeps an answer within the cap whole, and the first rows of a larger one with truncated and rowCount', () => {
    const small = { data: [{ a: 1 }], annotation: {} };
    expect(capped(small, 1000)).toBe(small);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ 'orders.id': i, 'orders.status': 'completed' }));
    const cut = capped({ data: rows, annotation: { measures: {} } }, 10_000) as { data: unknown[]; truncated: boolean; rowCount: number };
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(10_000);
    expect(cut).toMatchObject({ truncated: true, rowCount: 1000, annotation: { measures: {} } });
    expect(cut.data).toEqual(rows.slice(0, cut.data.length));
    const multi = capped({ queryType: 'multi', results: [{ data: rows }, { data: rows }] }, 10_000) as { results: { data: unknown[] }[] };
    expect(multi.results.every((r) => r.data.length > 0 && r.data.length < 1000)).toBe(true);
  });
});

describeOnStores(
  'report refresh',
  (server) => {
    describe.each(warehouseKinds)('on a %s warehouse', (kind) => {
      let d: PolicyDeployment;
      let uk: TestUser;
      let france: TestUser;
      beforeAll(async () => {
        d = await policyDeployment(server(), kind);
        const db = server().store.db;
        const sales = await db.selectFrom('user_group').select('id').where('account_id', '=', d.account.id).where('name', '=', 'sales').executeTakeFirstOrThrow();
        const salesUser = async (country: string) => {
          const user = await d.account.addUser('member');
          await server().services.groups.setUserGroups(d.account.id, user.id, [sales.id]);
          await server().services.userAttributes.setValues(d.account.id, user.id, [{ name: 'country', value: country }]);
          return user;
        };
        uk = await salesUser('UK');
        france = await salesUser('France');
      });
      afterAll(async () => d?.warehouse.close());

      const base = () => `/api/v1/deployments/${d.deploymentId}/reports`;
      const call = (method: 'POST' | 'PUT' | 'GET', url: string, as: TestUser, body?: unknown) =>
        d.account.request({ method, url: `${base()}${url}`, as, body });
      const countries = (snapshot: { data: Array<Record<string, unknown>> }) => new Set(snapshot.data.map((r) => r['customers.country']));
      const truthCount = async (country: string) =>
        (await d.warehouse.truth((t) => `SELECT id FROM ${t('customers')} WHERE country = '${country}'`)).length;

      it('runs as the calling user: two users with different attribute values get their own rows', async () => {
        const created = await call('POST', '', uk, { name: 'Customers', jsonQuery: CUSTOMERS });
        expect(created.status, created.text).toBe(200);
        const id = created.body.id as number;

        const mine = await call('PUT', `/${id}/refresh`, uk);
        expect(mine.status, mine.text).toBe(200);
        expect(mine.body).toMatchObject({ refreshError: null, refreshedBy: uk.id, refreshedByUser: { id: uk.id, email: uk.email } });
        expect(Date.parse(mine.body.refreshedAt)).toBeGreaterThan(Date.now() - 60_000);
        expect(countries(mine.body.snapshot)).toEqual(new Set(['UK']));
        expect(mine.body.snapshot.data.length).toBe(await truthCount('UK'));
        expect(mine.body.snapshot.annotation.dimensions['customers.country']).toBeDefined();

        // Shared with the other user, who refreshes it under its own attribute value.
        await server().store.db
          .insertInto('resource_policy')
          .values({ account_id: d.account.id, user_id: france.id, group_id: null, resource_type: 'Report', resource_id: id, action: 'ReportEdit' })
          .execute();
        const theirs = await call('PUT', `/${id}/refresh`, france);
        expect(theirs.status, theirs.text).toBe(200);
        expect(theirs.body.refreshedBy).toBe(france.id);
        expect(countries(theirs.body.snapshot)).toEqual(new Set(['France']));
        expect(theirs.body.snapshot.data.length).toBe(await truthCount('France'));
        expect((await call('GET', `/${id}`, uk)).body.snapshot).toEqual(theirs.body.snapshot);
      });

      it('a query that no longer runs keeps its error on the report and the last snapshot; a later refresh clears it', async () => {
        const created = await call('POST', '', uk, { name: 'Customers', jsonQuery: CUSTOMERS });
        const id = created.body.id as number;
        const good = await call('PUT', `/${id}/refresh`, uk);
        expect(good.body.refreshError).toBeNull();

        for (const [query, error] of [
          [{ dimensions: ['customers.nope'] }, /customers\.nope/],
          [{ dimensions: ['customers.email'] }, /hidden member/],
        ] as const) {
          await call('PUT', `/${id}`, uk, { jsonQuery: JSON.stringify(query) });
          const failed = await call('PUT', `/${id}/refresh`, uk);
          expect(failed.status, failed.text).toBe(200);
          expect(failed.body.refreshError).toMatch(error);
          expect(failed.body.snapshot).toEqual(good.body.snapshot);
          expect(failed.body.refreshedAt).toBe(good.body.refreshedAt);
          expect((await call('GET', `/${id}`, uk)).body.refreshError).toMatch(error);
        }
        await call('PUT', `/${id}`, uk, { jsonQuery: CUSTOMERS });
        const fixed = await call('PUT', `/${id}/refresh`, uk);
        expect(fixed.body.refreshError).toBeNull();
      });

      it('waits out "Continue wait" answers; still running past the bound is 503 and records nothing', async () => {
        const created = await call('POST', '', uk, { name: 'Slow', jsonQuery: CUSTOMERS });
        const reports = server().services.reports;
        const principal = { kind: 'apiKey', accountId: d.account.id, credentialId: uk.apiKeyId, userId: uk.id, role: 'member', deploymentIds: null } as const;
        const row = await reports.find(principal, d.deploymentId, created.body.id);
        const dataApi = server().services.dataApi;
        const load = dataApi.load.bind(dataApi);
        let waits = 2;
        const spy = vi.spyOn(dataApi, 'load').mockImplementation(async (...args) => (waits-- > 0 ? { error: 'Continue wait' } : load(...args)));
        try {
          await refreshReport(reports.ctx, principal, row, 10_000);
          expect(spy).toHaveBeenCalledTimes(3);
          const after = await reports.get(principal, d.deploymentId, row.id);
          expect(countries(after.snapshot as never)).toEqual(new Set(['UK']));

          waits = Number.POSITIVE_INFINITY;
          const stillRunning = refreshReport(reports.ctx, principal, row, 30);
          await expect(stillRunning).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/still running after/) });
          expect((await reports.get(principal, d.deploymentId, row.id)).refreshedAt).toBe(after.refreshedAt);
        } finally {
          spy.mockRestore();
        }
      });

      it('a sqlQuery refreshes through the SQL API translation, under the same policies', async () => {
        const sql = 'SELECT country, MEASURE(count) FROM customers GROUP BY 1';
        const created = await call('POST', '', france, { name: 'By country', sqlQuery: sql });
        const refreshed = await call('PUT', `/${created.body.id}/refresh`, france);
        expect(refreshed.status, refreshed.text).toBe(200);
        expect(refreshed.body.refreshError).toBeNull();
        expect(refreshed.body.snapshot.data).toEqual([
          { 'customers.country': 'France', 'customers.count': String(await truthCount('France')) },
        ]);
        await call('PUT', `/${created.body.id}`, france, { sqlQuery: 'SELECT email FROM customers' });
        const hidden = await call('PUT', `/${created.body.id}/refresh`, france);
        expect([hidden.status, hidden.body.refreshError]).toEqual([200, expect.stringMatching(/email/)]);
      });
    });

    it('no build yet: the error is kept on the report; a report without a query is 400', async () => {
      const account = await server().newAccount();
      const deploymentId = (await server().services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
      const url = `/api/v1/deployments/${deploymentId}/reports`;
      const withQuery = await account.request({ method: 'POST', url, as: account.member, body: { name: 'q', jsonQuery: CUSTOMERS } });
      const refreshed = await account.request({ method: 'PUT', url: `${url}/${withQuery.body.id}/refresh`, as: account.member });
      expect([refreshed.status, refreshed.body.refreshError]).toEqual([200, expect.stringMatching(/No successful build/)]);
      expect(refreshed.body.refreshedBy).toBeNull();
      const empty = await account.request({ method: 'POST', url, as: account.member, body: { name: 'empty' } });
      const none = await account.request({ method: 'PUT', url: `${url}/${empty.body.id}/refresh`, as: account.member });
      expect([none.status, none.body.error]).toEqual([400, expect.stringMatching(/no jsonQuery or sqlQuery to refresh/)]);
    });
  },
  dataDirOverride(),
);
