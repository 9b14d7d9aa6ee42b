import { expect, it } from 'vitest';
import type { CredentialKind } from '../http/principal.js';
import type { Requirement } from '../http/requirement.js';
import type { Role } from '../store/schema.js';
import { roleFor, scopeChecks } from './authorization-scope.js';
import type { TestAccount, TestServer, TestResponse } from './server.js';

/**
 * One operation, as the shared authorisation suite sees it. What it requires (credential kinds,
 * permission, resource) is not repeated here: the suite reads the route's own declaration.
 */
export interface OperationCase {
  /** The operationId, e.g. 'getOAuthIntegration'; also names the tests. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  /**
   * Status for a key scoped to another deployment when the declaration lets it through (an
   * operation within the caller's scope); successStatus by default. 403 where the service then finds the
   * stored resource reaches further than the key (revoking an account-wide key).
   */
  scopedStatus?: number;
  /**
   * Status for a key limited to the deployment the operation names, where the service then needs
   * something of the calling credential's own that a new key lacks (dev mode is per credential);
   * successStatus by default.
   */
  inScopeStatus?: number;
  /**
   * For an operation that also takes embed tokens (bare JWTs, under the dataToken kind): the same
   * request on an embed tenant's content made by a creator-mode session, with that session's token
   * and its neighbours'. Required when the route accepts the dataToken kind.
   */
  embed?: (account: TestAccount, server: TestServer) => Promise<EmbedCall>;
  /**
   * What the neighbours of the creator get: a read-only session of its tenant 403, a creator of
   * another tenant 404 (successStatus for an operation that targets no resource: it sees none of
   * it), a creator minted for another deployment 403.
   */
  embedStatuses?: Partial<Record<Exclude<keyof EmbedCall['tokens'], 'creator'>, number>>;
}

/** An operation called by embed sessions: its request, and tokens of the sessions around the content. */
export interface EmbedCall {
  url: string;
  body?: unknown;
  deploymentId: number;
  tokens: {
    /** A creator-mode session of the tenant that made the content: succeeds. */
    creator: string;
    /** A session of the same tenant without creatorMode. */
    readOnly: string;
    /** A creator-mode session of another embed tenant. */
    otherTenant: string;
    /** A creator-mode session of the same tenant, minted for another deployment. */
    otherDeployment: string;
  };
}

const sampleSecret: Record<CredentialKind, string> = {
  apiKey: 'Api-Key sk-unknownunknownunknownunknown',
  accessToken: 'Bearer pla_unknownunknownunknownunknown',
  scimToken: 'Bearer scim_unknownunknownunknownunknown',
  dataToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl',
  embedToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl',
};

/** The declaration of an operation in the running app; a case for an operation it does not serve fails. */
export function requirementOf(server: TestServer, operation: string): Requirement {
  const auth = server.app.operationAuth.get(operation);
  if (!auth || auth === 'public') throw new Error(`${operation} is not an authenticated operation of the app`);
  return auth;
}

/**
 * The checks every route gets, from what it declares: each credential kind it accepts works; no,
 * malformed, unknown, revoked, wrong-kind, other-account and deactivated-user credentials get 401;
 * a member gets 403 unless its role grants the permission; keys limited to deployments get what
 * the route's scope allows (authorization-scope.ts: 403 on every account-wide operation); and
 * another account's resource is 404, the same as a missing one.
 */
export function authorizationSuite(server: () => TestServer, cases: OperationCase[]) {
  for (const op of cases) {
    const call = async (account: TestAccount, as: Parameters<TestAccount['request']>[0]['as']) => {
      const { url, body } = await op.prepare(account, server());
      return account.request({ method: op.method, url, body, as });
    };
    const ok = op.successStatus ?? 200;
    const message = (response: TestResponse): string => (op.errorMessage ?? ((b: any) => b?.error))(response.body);
    const declared = () => requirementOf(server(), op.operation);
    const takesKeys = () => declared().kinds.includes('apiKey');
    /** The lowest role that may call the operation whatever its body sets. */
    const needed = (): Role => {
      const { permission, stricterWhen } = declared();
      return roleFor(permission) === 'admin' || (stricterWhen && roleFor(stricterWhen.permission) === 'admin') ? 'admin' : 'member';
    };
    const privileged = (account: TestAccount) => (needed() === 'admin' ? account.admin : account.member);

    const embedded = async (account: TestAccount): Promise<EmbedCall> => {
      if (!op.embed) throw new Error(`${op.operation} takes embed tokens: its case needs \`embed\` to say how they call it`);
      return op.embed(account, server());
    };

    it(`${op.operation}: accepts each declared credential kind`, async () => {
      const account = await server().newAccount();
      const user = privileged(account);
      for (const kind of declared().kinds) {
        if (kind === 'dataToken') {
          // The kind's bare JWTs that reach these routes are embed tokens of creator-mode sessions.
          const { url, body, tokens } = await embedded(account);
          const response = await account.request({ method: op.method, url, body, as: tokens.creator });
          expect(response.status, `embed token: ${response.text}`).toBe(ok);
          continue;
        }
        const response = await call(account, await credentialOf(kind, account, user));
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
      for (const kind of declared().kinds) {
        const unknown = await call(account, sampleSecret[kind]);
        // A bare JWT that verifies as nothing gets the data API's answer, as Cube's does.
        expect(unknown.status).toBe(kind === 'dataToken' ? 403 : 401);
        expect(message(unknown)).toMatch(kind === 'dataToken' ? /^Invalid token$/ : /Unknown|invalid/i);
      }
    });

    it(`${op.operation}: embed tokens: a creator-mode session of the content's tenant only, in its deployment; never a data API token`, async (context) => {
      if (!declared().kinds.includes('dataToken')) return context.skip();
      const account = await server().newAccount();
      const { url, body, tokens, deploymentId } = await embedded(account);
      const expected = {
        readOnly: 403,
        otherTenant: op.targetsResource === false ? ok : 404,
        otherDeployment: 403,
        ...op.embedStatuses,
      };
      for (const [who, status] of Object.entries(expected)) {
        const response = await account.request({ method: op.method, url, body, as: tokens[who as keyof typeof expected] });
        expect(response.status, `${who}: ${response.text}`).toBe(status);
        if (status === 403) expect(message(response)).toMatch(/does not grant|not allowed to access deployment/);
      }
      const minted = await account.request({
        method: 'POST',
        url: `/api/v1/deployments/${deploymentId}/token`,
        as: account.admin,
        body: {},
      });
      expect(minted.status, minted.text).toBe(200);
      const dataToken = await account.request({ method: op.method, url, body, as: minted.body.cubeApiToken });
      expect(dataToken.status, dataToken.text).toBe(403);
      expect(message(dataToken)).toMatch(/does not grant/);
    });

    it(`${op.operation}: 401 for credential kinds it does not accept`, async () => {
      const account = await server().newAccount();
      const others = (['apiKey', 'accessToken', 'scimToken'] as CredentialKind[]).filter((k) => !declared().kinds.includes(k));
      for (const kind of others) {
        const response = await call(account, await credentialOf(kind, account, account.admin));
        expect(response.status, kind).toBe(401);
        expect(message(response)).toMatch(/not accepted here/);
      }
    });

    it(`${op.operation}: 401 for a revoked credential, a deactivated user and another account's credential`, async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      // Routes that take no API key (SCIM) are checked with their own kind of credential.
      if (!takesKeys()) {
        const { id, token } = await server().services.credentials.createScimToken(account.id, account.admin.id, 'revoked');
        await server().services.credentials.revokeScimToken(account.id, id);
        const revoked = await call(account, `Bearer ${token}`);
        expect(revoked.status).toBe(401);
        expect(message(revoked)).toMatch(/revoked/);

        const foreign = await call(account, `Bearer ${await other.scimToken()}`);
        expect(foreign.status).toBe(401);
        expect(message(foreign)).toMatch(/Unknown/);
        return;
      }
      const user = await account.addUser(needed());
      await server().services.credentials.revokeApiKey(account.id, user.apiKeyId);
      const revoked = await call(account, user);
      expect(revoked.status).toBe(401);
      expect(message(revoked)).toMatch(/revoked/);

      const inactive = await account.addUser(needed());
      await server().store.db.updateTable('app_user').set({ active: false }).where('id', '=', inactive.id).execute();
      const deactivated = await call(account, inactive);
      expect(deactivated.status).toBe(401);
      expect(message(deactivated)).toMatch(/deactivated/);

      const foreign = await call(account, other.admin);
      expect(foreign.status).toBe(401);
      expect(message(foreign)).toMatch(/Unknown/);
    });

    it(`${op.operation}: a member gets 403 unless the member role grants the permission`, async (context) => {
      if (!takesKeys()) return context.skip();
      const account = await server().newAccount();
      const response = await call(account, account.member);
      if (needed() === 'member') {
        expect(response.status, response.text).toBe(ok);
      } else {
        expect(response.status).toBe(403);
        expect(message(response)).toMatch(/admin role/);
      }
    });

    scopeChecks({ op, server, declared, ok, message, needed });

    if (op.targetsResource !== false) {
      it(`${op.operation}: 404 for another account's resource`, async () => {
        const account = await server().newAccount();
        const other = await server().newAccount();
        const { url, body } = await op.prepare(other, server());
        const user = privileged(account);
        const as = takesKeys() ? user : await credentialOf(declared().kinds[0]!, account, user);
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
    case 'embedToken':
      return sampleSecret[kind];
  }
}
