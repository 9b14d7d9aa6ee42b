import { expect } from 'vitest';
import type { TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles } from '../builds/test-fixtures.js';
import { embedAccount, type EmbedAccount } from '../embed/test-fixtures.js';
import { policiesModelFiles, policyWarehouse, type PolicyWarehouse, type WarehouseKind } from './policies-fixtures.js';

/** How a persona of the policy tests holds its credential. */
export type Credential =
  | { kind: 'data'; securityContext: Record<string, unknown> }
  | { kind: 'environment'; securityContext: Record<string, unknown> }
  | { kind: 'embed'; groups: string[]; country?: string; securityContext?: Record<string, unknown> }
  /** An embed session for an internal user (`internalId`): the groups and attribute values the user holds in the account. */
  | { kind: 'internal'; groups: string[]; country: string };

export interface PolicyDeployment {
  account: EmbedAccount;
  deploymentId: number;
  warehouse: PolicyWarehouse;
  base: string;
  /** A bare token for the credential, minted through the platform's own API as its holder would get it (data and environment tokens: for `forDeployment`). */
  mint(credential: Credential, forDeployment?: number): Promise<string>;
  /** An embed session's id and its exchanged token. */
  embedSession(body: Record<string, unknown>): Promise<{ sessionId: string; token: string }>;
}

/**
 * An embedding account whose deployment serves the policies model, built, over the sample on the
 * given warehouse, with the groups and the `country` attribute the embedded users name.
 */
export async function policyDeployment(server: TestServer, kind: WarehouseKind): Promise<PolicyDeployment> {
  const account = await embedAccount(server);
  const { deploymentId } = account;
  const groupIds = new Map<string, number>();
  for (const group of ['sales', 'books', 'admin']) groupIds.set(group, await account.group(group));
  await account.attribute('country', 'string');
  const admin = adminOf(account);
  const warehouse = await policyWarehouse(server.services, admin, deploymentId, kind);
  await commitFiles(server.services, admin, deploymentId, policiesModelFiles(warehouse.schema));
  await server.jobs.runUntilIdle();

  const embedSession = async (body: Record<string, unknown>) => {
    const generated = await account.generate(body);
    expect(generated.status, generated.text).toBe(200);
    const sessionId = generated.body.sessionId as string;
    const exchanged = await account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId } });
    expect(exchanged.status, exchanged.text).toBe(200);
    return { sessionId, token: exchanged.body.token as string };
  };

  const mint = async (credential: Credential, forDeployment = deploymentId): Promise<string> => {
    if (credential.kind === 'data') {
      const minted = await account.request({
        method: 'POST',
        url: `/api/v1/deployments/${forDeployment}/token`,
        as: account.admin,
        body: { securityContext: credential.securityContext },
      });
      expect(minted.status, minted.text).toBe(200);
      return minted.body.cubeApiToken as string;
    }
    if (credential.kind === 'environment') {
      const url = `/api/v1/deployments/${forDeployment}/environments`;
      const production = await account.request({ method: 'GET', url: `${url}?type=production`, as: account.admin });
      expect(production.status, production.text).toBe(200);
      const created = await account.request({
        method: 'POST',
        url: `${url}/${production.body.data[0].id}/tokens`,
        as: account.admin,
        body: { security_context: credential.securityContext },
      });
      expect(created.status, created.text).toBe(200);
      return created.body.data.token as string;
    }
    if (credential.kind === 'internal') {
      const user = await account.addUser('member');
      await server.services.groups.setUserGroups(
        account.id,
        user.id,
        credential.groups.map((g) => groupIds.get(g)!),
      );
      await server.services.userAttributes.setValues(account.id, user.id, [{ name: 'country', value: credential.country }]);
      return (await embedSession({ internalId: user.email })).token;
    }
    const { token } = await embedSession({
      externalId: `user-${credential.groups.join('-')}-${credential.country ?? 'none'}`,
      groups: credential.groups,
      ...(credential.country ? { userAttributes: [{ name: 'country', value: credential.country }] } : {}),
      ...(credential.securityContext ? { securityContext: credential.securityContext } : {}),
    });
    return token;
  };

  return { account, deploymentId, warehouse, base: `/d/${deploymentId}/cubejs-api/v1`, mint, embedSession };
}
