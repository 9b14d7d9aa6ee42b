import { expect, it } from 'vitest';
import { BODY_LIMIT } from '../app.js';
import { describeOnStores } from '../test-support/server.js';

const valid = {
  name: 'x',
  type: 'okta',
  authUrl: 'https://a.example.com/a',
  tokenUrl: 'https://a.example.com/t',
  clientId: 'c',
  redirectUri: 'https://a.example.com/r',
};

/** Issue 2 point 11: bad input never reaches a 500, and every response carries a request id. */
describeOnStores('bad input', (server) => {
  const post = async (payload: string, contentType = 'application/json') => {
    const account = await server().newAccount();
    return account.request({
      method: 'POST',
      url: '/api/v1/oauth-integrations',
      as: account.admin,
      body: payload,
      headers: { 'content-type': contentType },
    });
  };

  it.each([
    ['malformed JSON', '{"name": ', 'application/json', 400, /not valid JSON/],
    ['an empty JSON body', '', 'application/json', 400, /JSON|body/],
    ['a wrong content type', 'name=x', 'application/x-www-form-urlencoded', 415, /Unsupported Media Type|content-type/i],
    ['text/plain', JSON.stringify(valid), 'text/plain', 415, /Unsupported Media Type|content-type/i],
    ['a field of the wrong type', JSON.stringify({ ...valid, name: 42 }), 'application/json', 400, /name.*string/],
    ['a missing required field', JSON.stringify({ ...valid, name: undefined }), 'application/json', 400, /required property "name"/],
    ['an unknown field', JSON.stringify({ ...valid, nmae: 'x' }), 'application/json', 400, /unknown property "nmae"/],
    ['a JSON array instead of an object', '[]', 'application/json', 400, /object/],
  ])('%s gets a 4xx naming the problem', async (_label, payload, contentType, status, message) => {
    const response = await post(payload, contentType);
    expect(response.status).toBe(status);
    expect(response.body.error).toMatch(message);
    expect(response.body.code).toEqual(expect.any(String));
    expect(response.body.requestId).toBe(response.headers['x-request-id']);
  });

  it.each<[string, string, (id: number) => string, unknown, string]>([
    ['an unknown role', 'POST', () => '/api/v1/users', { email: 'role@example.com', role: 'owner' }, 'role must be one of admin, member'],
    ['a short password', 'PUT', (id) => `/api/v1/users/${id}/password`, { password: 'short' }, 'password must be at least 12 characters'],
    [
      'an attribute type',
      'POST',
      () => '/api/v1/user-attributes',
      { name: 'x', type: 'text' },
      'type must be one of string, number, string_array, number_array',
    ],
    ['a nested e-mail', 'POST', () => '/api/v1/users', { email: 'not-an-address' }, 'email must be an e-mail address'],
    ['a page size', 'GET', () => '/api/v1/users?first=5000', undefined, 'query parameter first must be at most 1000'],
  ])('newcomer item 6: %s is refused in a sentence naming the field', async (_label, method, url, body, message) => {
    const account = await server().newAccount();
    const response = await account.request({ method: method as 'POST', url: url(account.member.id), as: account.admin, body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', error: message });
  });

  it('a body over 1 MiB gets 413', async () => {
    const response = await post(JSON.stringify({ ...valid, name: 'x'.repeat(BODY_LIMIT) }));
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'payload_too_large' });
    expect(response.body.error).toContain('1 MiB');
  });

  it.each<['GET' | 'PUT' | 'DELETE', string]>([
    ['GET', '/api/v1/no-such-thing'],
    ['PUT', '/api/v1/oauth-integrations'],
    ['DELETE', '/api/v1/oauth-integrations'],
  ])('an unknown route (%s %s) gets 404 naming it', async (method, url) => {
    const account = await server().newAccount();
    const response = await account.request({ method, url, as: account.admin });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'route_not_found', error: `No route ${method} ${url}` });
  });

  it('an unknown route is named without its query string, which may carry personal data', async () => {
    const account = await server().newAccount();
    const response = await account.request({ method: 'GET', url: '/api/v1/no-such-thing?email=ann@example.com', as: account.admin });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'No route GET /api/v1/no-such-thing' });
  });

  it('every response carries a request id, successes included, each one different', async () => {
    const account = await server().newAccount();
    const a = await account.request({ method: 'GET', url: '/api/v1/oauth-integrations', as: account.admin });
    const b = await account.request({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});
