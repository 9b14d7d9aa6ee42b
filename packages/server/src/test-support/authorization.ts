import { expect, it } from 'vitest';
import type { CredentialKind } from '../http/principal.js';
import type { Role } from '../store/schema.js';
import type { TestAccount, TestServer, TestResponse } from './server.js';

/** One operation, as the shared authorisation suite sees it. */
export interface OperationCase {
  /** e.g. 'getOAuthIntegration'; used in test names. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Credential kinds the route accepts and the role it needs (as declared in its config.auth). */
  kinds: readonly CredentialKind[];
  role?: Role;
  /**
   * Builds the request for an account: creates whatever the operation acts on (in that account)
   * and returns the URL and body. Called afresh for every check, so destructive operations work.
   */
  prepare(account: TestAccount, server: TestServer): Promise<{ url: string; body?: unknown }>;
  /** Status of a successful call (200 by default). */
  successStatus?: number;
  /** False for operations with no resource in the path (lists, creates): skips the cross-account 404 check. */
  targetsResource?: boolean;
  /** Where the surface puts an error's message (SCIM uses `detail`); `error` by default. */
  errorMessage?: (body: any) => string;
}

const sampleSecret: Record<CredentialKind, string> = {
  apiKey: 'Api-Key sk-unknownunknownunknownunknown',
  accessToken: 'Bearer pla_unknownunknownunknownunknown',
  scimToken: 'Bearer scim_unknownunknownunknownunknown',
  dataToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl',
};

/**
 * The checks every route gets: each credential kind it accepts works; no, malformed, unknown,
 * revoked, wrong-kind, other-account and deactivated-user credentials get 401; a member gets 403
 * where admin is required; and another account's resource is 404, the same as a missing one.
 */
export function authorizationSuite(server: () => TestServer, cases: OperationCase[]) {
  for (const op of cases) {
    const call = async (account: TestAccount, as: Parameters<TestAccount['request']>[0]['as']): Promise<TestResponse> => {
      const { url, body } = await op.prepare(account, server());
      return account.request({ method: op.method, url, body, as });
    };
    const ok = op.successStatus ?? 200;
    const message = (response: TestResponse): string => (op.errorMessage ?? ((b: any) => b?.error))(response.body);
    const privileged = (account: TestAccount) => (op.role === 'admin' ? account.admin : account.member);

    it(`${op.operation}: accepts each declared credential kind`, async () => {
      const account = await server().newAccount();
      for (const kind of op.kinds) {
        const as = await credentialOf(kind, account, privileged(account));
        const response = await call(account, as);
        expect(response.status, `${kind}: ${response.text}`).toBe(ok);
      }
    });

    it(`${op.operation}: 401 without, with malformed and with unknown credentials`, async () => {
      const account = await server().newAccount();
      const missing = await call(account, null);
      expect(missing.status).toBe(401);
      expect(message(missing)).toMatch(/Missing Authorization/);
      const malformed = await call(account, 'Api-Key not-a-key');
      expect(malformed.status).toBe(401);
      expect(message(malformed)).toMatch(/Malformed/);
      for (const kind of op.kinds) {
        const unknown = await call(account, sampleSecret[kind]);
        expect(unknown.status).toBe(401);
        expect(message(unknown)).toMatch(/Unknown|invalid/i);
      }
    });

    it(`${op.operation}: 401 for credential kinds it does not accept`, async () => {
      const account = await server().newAccount();
      const others = (['apiKey', 'accessToken', 'scimToken'] as CredentialKind[]).filter((k) => !op.kinds.includes(k));
      for (const kind of others) {
        const response = await call(account, await credentialOf(kind, account, account.admin));
        expect(response.status, kind).toBe(401);
        expect(message(response)).toMatch(/not accepted here/);
      }
    });

    // Routes that take no API key (SCIM) are checked with their own kind of credential below.
    if (op.kinds.includes('scimToken') && !op.kinds.includes('apiKey')) {
      it(`${op.operation}: 401 for a revoked SCIM token and another account's SCIM token`, async () => {
        const account = await server().newAccount();
        const other = await server().newAccount();
        const { id, token } = await server().services.credentials.createScimToken(account.id, account.admin.id, 'revoked');
        await server().services.credentials.revokeScimToken(account.id, id);
        const revoked = await call(account, `Bearer ${token}`);
        expect(revoked.status).toBe(401);
        expect(message(revoked)).toMatch(/revoked/);

        const foreign = await call(account, `Bearer ${await other.scimToken()}`);
        expect(foreign.status).toBe(401);
        expect(message(foreign)).toMatch(/Unknown/);
      });
    } else it(`${op.operation}: 401 for a revoked key, a deactivated user and another account's key`, async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const user = await account.addUser(op.role ?? 'member');
      await server().services.credentials.revokeApiKey(account.id, user.apiKeyId);
      const revoked = await call(account, user);
      expect(revoked.status).toBe(401);
      expect(message(revoked)).toMatch(/revoked/);

      const inactive = await account.addUser(op.role ?? 'member');
      await server().store.db.updateTable('app_user').set({ active: false }).where('id', '=', inactive.id).execute();
      const deactivated = await call(account, inactive);
      expect(deactivated.status).toBe(401);
      expect(message(deactivated)).toMatch(/deactivated/);

      const foreign = await call(account, other.admin);
      expect(foreign.status).toBe(401);
      expect(message(foreign)).toMatch(/Unknown/);
    });

    if (op.role === 'admin') {
      it(`${op.operation}: 403 for a member`, async () => {
        const account = await server().newAccount();
        const response = await call(account, account.member);
        expect(response.status).toBe(403);
        expect(message(response)).toMatch(/admin role/);
      });
    }

    if (op.targetsResource !== false) {
      it(`${op.operation}: 404 for another account's resource`, async () => {
        const account = await server().newAccount();
        const other = await server().newAccount();
        const { url, body } = await op.prepare(other, server());
        const as = op.kinds.includes('apiKey') ? privileged(account) : await credentialOf(op.kinds[0]!, account, privileged(account));
        const response = await account.request({ method: op.method, url, body, as });
        expect(response.status, response.text).toBe(404);
      });
    }
  }
}

async function credentialOf(kind: CredentialKind, account: TestAccount, user: TestAccount['admin']): Promise<string> {
  switch (kind) {
    case 'apiKey':
      return `Api-Key ${user.apiKey}`;
    case 'accessToken':
      return `Bearer ${await account.accessToken(user)}`;
    case 'scimToken':
      return `Bearer ${await account.scimToken()}`;
    case 'dataToken':
      return sampleSecret.dataToken;
  }
}
