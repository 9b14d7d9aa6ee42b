import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { policyDeployment, type PolicyDeployment } from './policies-test-credentials.js';
import { expectations, PERSONAS, textRows } from './policies-test-personas.js';
import { dataDirOverride } from './test-fixtures.js';

const TENANT = 'acme-corp';

/**
 * Creator mode's query builder reads the model through /meta and runs its reports through /load
 * with the session's own embed token: the groups and attributes of a creator-mode session come
 * from its embed tenant's catalog (2.6 rule 2, 2.7 rule 2, defined by 2.8 and 2.9), and the
 * model's access policies must see them exactly as they see a read-only session's names from
 * the account's catalog.
 */
describeOnStores(
  'creator mode: /meta and /load under the creator-mode session of an embed tenant',
  (server) => {
    let d: PolicyDeployment;
    beforeAll(async () => {
      d = await policyDeployment(server(), 'duckdb');
      await d.account.creatorMode();
    });
    afterAll(async () => d?.warehouse.close());

    it.each(PERSONAS.filter((p) => p.credential.kind === 'embed' && p.credential.country && !p.credential.securityContext))(
      'as the read-only $name, with the names in the embed tenant',
      async ({ credential, sees }) => {
        if (credential.kind !== 'embed') throw new Error('unreachable');
        const { token } = await d.embedSession({
          externalId: `creator-${credential.groups.join('-')}`,
          creatorMode: true,
          embedTenantName: TENANT,
          groupDefinitions: credential.groups.map((name) => ({ name })),
          userAttributeDefinitions: [{ name: 'country', type: 'string' }],
          groups: credential.groups,
          userAttributes: [{ name: 'country', value: credential.country }],
        });
        const readOnly = await d.mint(credential);
        const call = (as: string, verb: string, query?: unknown) =>
          d.account.request({ method: query ? 'POST' : 'GET', url: `${d.base}/${verb}`, as, body: query ? { query } : undefined });

        const meta = await call(token, 'meta');
        expect(meta.status, meta.text).toBe(200);
        const customers = meta.body.cubes.find((c: { name: string }) => c.name === 'customers');
        expect([...customers.measures, ...customers.dimensions].map((m: { name: string }) => m.name).sort()).toEqual(
          sees.customers!.members,
        );
        expect((await call(readOnly, 'meta')).body).toEqual(meta.body);

        for (const { query, truth } of expectations(sees)) {
          const load = await call(token, 'load', query);
          if (!truth) {
            expect(load.status, JSON.stringify(query)).toBe(400);
            continue;
          }
          expect(load.status, load.text).toBe(200);
          expect(textRows(load.body.data), JSON.stringify(query)).toEqual(await d.warehouse.truth(truth));
        }
      },
    );
  },
  dataDirOverride(),
);
