import { expect, it } from 'vitest';
import { permissionCatalog, type Permission } from '../http/permissions.js';
import { stricterApplies, type Requirement } from '../http/requirement.js';
import type { Role } from '../store/schema.js';
import type { OperationCase } from './authorization.js';
import type { TestAccount, TestResponse, TestServer } from './server.js';

/** What the shared suite knows of one operation, for the checks of keys limited to deployments. */
export interface ScopeContext {
  op: OperationCase;
  server: () => TestServer;
  /** The route's declaration in the running app. */
  declared: () => Requirement;
  /** Status of a successful call. */
  ok: number;
  message: (response: TestResponse) => string;
  /** The lowest role that may call the operation whatever its body sets. */
  needed: () => Role;
}

/** The lowest role that grants a permission. */
export const roleFor = (permission: Permission): Role => (permissionCatalog().roles.member.has(permission) ? 'member' : 'admin');

/** The permission a request needs: the stricter one when its body sets one of the fields that call for it. */
function permissionFor(requirement: Requirement, body: unknown): Permission {
  const stricter = requirement.stricterWhen;
  return stricter && stricterApplies(stricter, body) ? stricter.permission : requirement.permission;
}

const ACCOUNT_WIDE_REFUSAL = /^This API key is limited to deployments [\d, ]+ and cannot .+; use a key for every deployment$/;

/**
 * The checks of keys limited to deployments, from what the route declares: an account-wide
 * operation refuses any of them, even one limited to every deployment the account has; an
 * operation on a deployment takes a key limited to that deployment and refuses one limited to
 * another; one within the caller's scope takes it; and a key never creates a wider key.
 */
export function scopeChecks({ op, server, declared, ok, message, needed }: ScopeContext) {
  const takesKeys = () => declared().kinds.includes('apiKey');

  it(`${op.operation}: a key scoped to another deployment of the account`, async (context) => {
    if (!takesKeys()) return context.skip();
    const account = await server().newAccount();
    const { url, body } = await op.prepare(account, server());
    const requirement = declared();
    const permission = permissionFor(requirement, body);
    const other = await server().services.deployments.create(account.id, { name: 'elsewhere' }, 'http://localhost');
    const scoped = await scopedKey(server(), account, roleFor(permission), [other.id]);
    const response = await account.request({ method: op.method, url, body, as: scoped });
    const resource = requirement.resource;
    if (typeof resource === 'object') {
      // (a) an operation on a deployment: only the key's own deployments.
      expect(response.status, response.text).toBe(403);
      expect(message(response)).toMatch(/^This API key is not allowed to access deployment \d+$/);
    } else if (resource === 'requestedCredential') {
      // (b) the key it would create reaches every deployment (see below for the others).
      expect(response.status, response.text).toBe(403);
      expect(message(response)).toMatch(/limited to deployments \d+ and cannot .* for every deployment/);
    } else if (resource === 'account' || permissionCatalog().accountWide.has(permission)) {
      // (c) what reaches the whole account needs a key for every deployment.
      expect(response.status, response.text).toBe(403);
      expect(message(response)).toMatch(ACCOUNT_WIDE_REFUSAL);
    } else {
      expect(response.status, response.text).toBe(op.scopedStatus ?? ok);
    }
  });

  it(`${op.operation}: an admin key limited to every deployment of the account gets 403 when the operation is account-wide`, async (context) => {
    if (!takesKeys() || declared().resource !== 'account') return context.skip();
    const account = await server().newAccount();
    await server().services.deployments.create(account.id, { name: 'mine' }, 'http://localhost');
    const { url, body } = await op.prepare(account, server());
    // Every deployment there is, the operation's own included: only being limited is refused.
    const rows = await server().store.db.selectFrom('deployment').select('id').where('account_id', '=', account.id).execute();
    const scoped = await scopedKey(
      server(),
      account,
      'admin',
      rows.map((row) => row.id),
    );
    const response = await account.request({ method: op.method, url, body, as: scoped });
    expect(response.status, response.text).toBe(403);
    expect(message(response)).toMatch(ACCOUNT_WIDE_REFUSAL);
  });

  it(`${op.operation}: a key scoped to the deployment it names may call it`, async (context) => {
    const resource = declared().resource;
    if (!takesKeys() || typeof resource !== 'object') return context.skip();
    const account = await server().newAccount();
    const { url, body } = await op.prepare(account, server());
    const id =
      resource.deploymentIdIn === 'body'
        ? (body as Record<string, unknown> | undefined)?.[resource.name]
        : paramOf(server(), op, url, resource.name);
    // A body that names no deployment lets the service choose among the caller's (see requirement.ts).
    if (typeof id !== 'number') return context.skip();
    const scoped = await scopedKey(server(), account, needed(), [id]);
    const response = await account.request({ method: op.method, url, body, as: scoped });
    expect(response.status, response.text).toBe(op.inScopeStatus ?? ok);
  });

  it(`${op.operation}: a scoped key never creates a key wider than itself`, async (context) => {
    if (declared().resource !== 'requestedCredential') return context.skip();
    const account = await server().newAccount();
    const call = async (as: string | TestAccount['admin'], change: (body: any) => unknown) => {
      const { url, body } = await op.prepare(account, server());
      return account.request({ method: op.method, url, body: change(body), as });
    };
    const mine = await server().services.deployments.create(account.id, { name: 'mine' }, 'http://localhost');
    const other = await server().services.deployments.create(account.id, { name: 'other' }, 'http://localhost');
    const scoped = await scopedKey(server(), account, 'admin', [mine.id]);
    for (const [wider, pattern] of [
      [{ role: 'admin', deploymentIds: null }, /for every deployment; name its deploymentIds$/],
      [{ role: 'admin', deploymentIds: [other.id] }, new RegExp(`for deployments ${other.id}$`)],
      [{ role: 'member', deploymentIds: [mine.id, other.id] }, new RegExp(`for deployments ${other.id}$`)],
    ] as const) {
      const response = await call(scoped, (body) => ({ ...body, ...wider }));
      expect(response.status, JSON.stringify(wider)).toBe(403);
      expect(message(response)).toMatch(pattern);
    }
    const narrower = await call(scoped, (body) => ({ ...body, role: 'member', deploymentIds: [mine.id] }));
    expect(narrower.status, narrower.text).toBe(ok);
    // A higher role than the caller's: a key of an admin since demoted acts as a member.
    const demoted = await account.addUser('admin');
    await server().store.db.updateTable('app_user').set({ role: 'member' }).where('id', '=', demoted.id).execute();
    const higher = await call(demoted, (body) => ({ ...body, role: 'admin' }));
    expect(higher.status).toBe(403);
  });
}

/** A path parameter of the request, as the app's router reads the URL. */
function paramOf(server: TestServer, op: OperationCase, url: string, name: string): number | undefined {
  const route = server.app.findRoute({ method: op.method, url: url.split('?')[0]! });
  const value = (route?.params as Record<string, string | undefined> | undefined)?.[name];
  return value === undefined ? undefined : Number(value);
}

/** An API key of the account's user of that role, limited to the given deployments. */
export async function scopedKey(server: TestServer, account: TestAccount, role: Role, deploymentIds: number[]): Promise<string> {
  const user = role === 'admin' ? account.admin : account.member;
  const key = await server.services.credentials.createApiKey(account.id, user.id, { name: 'scoped', role, deploymentIds });
  return `Api-Key ${key.key}`;
}
