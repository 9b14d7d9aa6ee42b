import { expect } from 'vitest';
import type { AttributeType } from '../../store/schema.js';
import type { TestAccount, TestResponse, TestServer } from '../../test-support/server.js';

/** An account ready for signed embedding: a deployment, and helpers to shape its catalogs. */
export interface EmbedAccount extends TestAccount {
  deploymentId: number;
  ref: { id: number; name: string };
  generate(body: Record<string, unknown>, as?: TestAccount['admin'] | string | null): Promise<TestResponse>;
  group(name: string): Promise<number>;
  attribute(name: string, type: AttributeType): Promise<number>;
  creatorMode(on?: boolean): Promise<void>;
  /** The external user as the admin API shows it, or undefined when it does not exist. */
  externalUser(externalId: string, tenant?: string): Promise<any>;
  /** Rows of every embed table for this account: what a rejected request must leave unchanged. */
  footprint(): Promise<Record<string, unknown>>;
}

export async function embedAccount(server: TestServer): Promise<EmbedAccount> {
  const account = await server.newAccount();
  const deployment = await server.services.deployments.create(account.id, { name: 'main' }, 'http://localhost');
  const ref = { id: account.id, name: account.name };
  const generate = (body: Record<string, unknown>, as: TestAccount['admin'] | string | null = account.admin) =>
    account.request({ method: 'POST', url: '/api/v1/embed/generate-session', as, body: { deploymentId: deployment.id, ...body } });
  return {
    ...account,
    deploymentId: deployment.id,
    ref,
    generate,
    group: async (name) => (await server.services.groups.create(account.id, { name })).id,
    attribute: async (name, type) => (await server.services.userAttributes.create(account.id, { name, type })).id,
    creatorMode: async (on = true) => {
      await server.services.tenantSettings.update(account.id, { useCreatorMode: on });
    },
    externalUser: async (externalId, tenant = account.name) => {
      const response = await account.request({
        method: 'GET',
        url: `/api/v1/embed-tenants/${tenant}/users/${encodeURIComponent(externalId)}`,
        as: account.admin,
      });
      if (response.status === 404) return undefined;
      expect(response.status, response.text).toBe(200);
      return response.body;
    },
    footprint: async () => {
      const tables = [
        'embed_tenant',
        'embed_group',
        'embed_user_attribute',
        'external_user',
        'external_user_group',
        'external_user_attribute_value',
        'external_user_tenant_group',
        'external_user_tenant_attribute_value',
        'embed_session',
      ] as const;
      const counts: Record<string, unknown> = {};
      for (const table of tables) {
        const row = await server.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', account.id)
          .executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      const external = await server.store.db
        .selectFrom('external_user')
        .select(['external_id', 'email', 'display_name', 'picture'])
        .where('account_id', '=', account.id)
        .orderBy('id')
        .execute();
      counts.profiles = external;
      counts.values = await server.store.db
        .selectFrom('external_user_attribute_value')
        .select(['external_user_id', 'attribute_id', 'value'])
        .where('account_id', '=', account.id)
        .orderBy('external_user_id')
        .orderBy('attribute_id')
        .execute();
      counts.descriptions = await server.store.db
        .selectFrom('embed_user_attribute')
        .select(['name', 'type', 'display_name', 'default_value', 'description'])
        .where('account_id', '=', account.id)
        .orderBy('name')
        .execute();
      return counts;
    },
  };
}

/** Generates a session and exchanges it; the token's claims, decoded without verification. */
export async function mintClaims(account: EmbedAccount, body: Record<string, unknown>): Promise<any> {
  const generated = await account.generate(body);
  expect(generated.status, generated.text).toBe(200);
  const exchanged = await account.request({
    method: 'POST',
    url: '/api/v1/embed/session/token',
    body: { sessionId: generated.body.sessionId },
  });
  expect(exchanged.status, exchanged.text).toBe(200);
  return JSON.parse(Buffer.from(exchanged.body.token.split('.')[1], 'base64url').toString());
}
