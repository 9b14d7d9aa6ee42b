import { expect } from 'vitest';
import type { TestAccount, TestResponse } from '../../test-support/server.js';
import { URN } from './errors.js';

/** A SCIM client for tests: one account, one SCIM token, requests as an identity provider sends them. */
export interface ScimTestClient {
  account: TestAccount;
  token: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  createUser(overrides?: Record<string, unknown>): Promise<any>;
  createGroup(overrides?: Record<string, unknown>): Promise<any>;
  patch(path: string, operations: unknown[], headers?: Record<string, string>): Promise<TestResponse>;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

export async function scimClient(account: TestAccount): Promise<ScimTestClient> {
  const token = await account.scimToken();
  const call: ScimTestClient['call'] = (method, path, body, headers) =>
    account.request({
      method,
      url: `/api/scim/v2${path}`,
      as: `Bearer ${token}`,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }), ...headers },
    });
  return {
    account,
    token,
    call,
    async createUser(overrides = {}) {
      const response = await call('POST', '/Users', {
        schemas: [URN.user],
        userName: uniqueEmail(),
        name: { givenName: 'Jane', familyName: 'Doe' },
        active: true,
        ...overrides,
      });
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
    async createGroup(overrides = {}) {
      const response = await call('POST', '/Groups', {
        schemas: [URN.group],
        displayName: `group-${counter++}-${Date.now()}`,
        ...overrides,
      });
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
    patch: (path, operations, headers) => call('PATCH', path, { schemas: [URN.patchOp], Operations: operations }, headers),
  };
}

/** RFC 7644 §3.12: every SCIM error has the error URN, the status as a string and a detail. */
export function expectScimError(response: TestResponse, status: number, scimType?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect(response.body).toMatchObject({ schemas: [URN.error], status: String(status), detail: expect.any(String) });
  if (scimType) expect(response.body.scimType).toBe(scimType);
}
