import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, type EmbedAccount } from '../embed/test-fixtures.js';
import { sampleBody, leafPaths, setAt, type JsonSchema, type SpecDocument } from '../../test-support/spec-walk.js';

/**
 * Issue 10, "bad input must never be a 500": every operation of the served document (so a new
 * route is covered the day it is added) gets a NUL byte and lone surrogates in each path
 * parameter, query parameter, a header and each string field of its body, and out-of-range
 * numbers and cursors; none may answer 5xx, and the bad text must answer 400.
 */
const BAD_TEXT: Array<[label: string, raw: string, encoded: string]> = [
  ['a NUL byte', 'a\u0000b', 'a%00b'],
  ['a lone high surrogate', 'x\uD800', 'x%ED%A0%80'],
  ['a lone low surrogate', '\uDC00y', '%ED%B0%80y'],
];
const cursor = (text: string) => Buffer.from(text).toString('base64url');
const BAD_NUMBERS = ['1e400', '99999999999999999999', '2147483648', '-1', '1.5', 'NaN', '0x10', ''];
const BAD_CURSORS = [cursor('id:99999999999999999999'), cursor('id:2147483648'), cursor('id:1e400'), cursor('x'), '%%%'];

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema?: JsonSchema }>;
  security: Array<Record<string, unknown>>;
  body?: { type: string; schema: JsonSchema };
}

interface Sent {
  where: string;
  status: number;
  text: string;
}

describeOnStores('bad values sent to every operation of the served spec', (server) => {
  let doc: SpecDocument;
  let operations: Operation[];
  let account: EmbedAccount;
  /** Path values that name things that exist, so a request gets past its lookups. */
  let existing: Record<string, string>;
  let credentials: Record<string, string>;

  beforeAll(async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    doc = JSON.parse(response.body);
    operations = operationsOf(doc);
    account = await embedAccount(server());
    await account.creatorMode();
    const session = await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: 'fuzz-tenant' });
    expect(session.status, session.text).toBe(200);
    existing = { group: String(await account.group('fuzz')), embedTenantName: 'fuzz-tenant', deploymentId: String(account.deploymentId) };
    credentials = {
      apiKeyAuth: `Api-Key ${account.admin.apiKey}`,
      bearerAuth: `Bearer ${await account.accessToken(account.admin)}`,
      scimBearerAuth: `Bearer ${await account.scimToken()}`,
    };
  });

  const authorizationFor = (op: Operation) => {
    const scheme = op.security.map((s) => Object.keys(s)[0]!).find((name) => credentials[name]);
    return scheme ? credentials[scheme] : undefined;
  };

  const urlOf = (op: Operation, pathValues: Record<string, string> = {}, query = '') => {
    const path = op.path.replace(/\{([^}]+)\}/g, (_all, name: string) => pathValues[name] ?? validPathValue(op, name, existing));
    return query ? `${path}?${query}` : path;
  };

  const send = async (
    op: Operation,
    where: string,
    options: { url?: string; headers?: Record<string, string>; payload?: string; contentType?: string },
  ) => {
    const authorization = authorizationFor(op);
    const body = options.payload ?? (op.body ? validPayload(op) : undefined);
    const response = await server().app.inject({
      method: op.method as 'GET',
      url: options.url ?? urlOf(op),
      headers: {
        host: account.host,
        ...(authorization ? { authorization } : {}),
        ...(body !== undefined ? { 'content-type': options.contentType ?? op.body!.type } : {}),
        ...options.headers,
      },
      ...(body !== undefined ? { payload: body } : {}),
    });
    return { where: `${op.method} ${op.path} ${where}`, status: response.statusCode, text: response.body } satisfies Sent;
  };

  const validPayload = (op: Operation) => encode(op.body!.type, sampleBody(op.body!.schema, doc));

  const expectAll = (sent: Sent[], rule: (s: Sent) => boolean) => {
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((s) => !rule(s)).map((s) => `${s.where} -> ${s.status} ${s.text.slice(0, 200)}`)).toEqual([]);
  };

  it('covers every operation the spec lists, with the parameters it declares', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((op) => op.parameters.some((p) => p.in === 'path')).length).toBeGreaterThan(20);
    expect(operations.filter((op) => op.body).length).toBeGreaterThan(20);
  });

  it.each(BAD_TEXT)('%s in any path parameter gets 400', async (_label, _raw, encoded) => {
    const sent: Sent[] = [];
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.in === 'path')) {
        sent.push(await send(op, `path ${param.name}`, { url: urlOf(op, { [param.name]: encoded }) }));
      }
    }
    expectAll(sent, (s) => s.status === 400);
  });

  it.each(BAD_TEXT)('%s in any query parameter gets 400', async (_label, _raw, encoded) => {
    const sent: Sent[] = [];
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.in === 'query')) {
        sent.push(await send(op, `query ${param.name}`, { url: urlOf(op, {}, `${param.name}=${encoded}`) }));
      }
    }
    expectAll(sent, (s) => s.status === 400);
  });

  it.each(BAD_TEXT)('%s in a header of any operation gets 400', async (_label, raw) => {
    const sent: Sent[] = [];
    for (const op of operations) {
      const declared = op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
      for (const name of ['user-agent', ...declared]) sent.push(await send(op, `header ${name}`, { headers: { [name]: raw } }));
      if (authorizationFor(op)) {
        sent.push(await send(op, 'header authorization', { headers: { authorization: `${authorizationFor(op)}${raw}` } }));
      }
    }
    expectAll(sent, (s) => s.status === 400);
  });

  it.each(BAD_TEXT)('%s in any string field of any body gets 400, or fails only its bulk entry', async (_label, raw) => {
    const sent: Sent[] = [];
    for (const op of operations.filter((o) => o.body)) {
      const sample = sampleBody(op.body!.schema, doc);
      for (const path of leafPaths(op.body!.schema, doc, 'string')) {
        const payload = encode(op.body!.type, setAt(sample, path, raw));
        sent.push(await send(op, `body ${path.join('.')}`, { payload }));
      }
    }
    expectAll(sent, (s) => s.status === 400 || bulkEntryFailedWith400(s));
  });

  it('out-of-range numbers in path and query parameters never get a 5xx', async () => {
    const sent: Sent[] = [];
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.in !== 'header')) {
        const values = param.name === 'after' ? BAD_CURSORS : BAD_NUMBERS;
        for (const value of values) {
          const url = param.in === 'path' ? urlOf(op, { [param.name]: value || '%20' }) : urlOf(op, {}, `${param.name}=${value}`);
          sent.push(await send(op, `${param.in} ${param.name}=${value}`, { url }));
        }
      }
    }
    expectAll(sent, (s) => s.status < 500);
  });

  it.each(['1e400', '99999999999999999999', '2147483648'])('%s in any integer path or query parameter gets 400', async (value) => {
    const sent: Sent[] = [];
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.schema?.type === 'integer' && p.in !== 'header')) {
        const url = param.in === 'path' ? urlOf(op, { [param.name]: value }) : urlOf(op, {}, `${param.name}=${value}`);
        sent.push(await send(op, `${param.in} ${param.name}=${value}`, { url }));
      }
    }
    expectAll(sent, (s) => s.status === 400);
  });

  it('numbers too large for JSON (1e400) anywhere in a body get 400, or fail only their bulk entry', async () => {
    const sent: Sent[] = [];
    for (const op of operations.filter((o) => o.body?.type === 'application/json')) {
      const sample = sampleBody(op.body!.schema, doc);
      for (const path of [...leafPaths(op.body!.schema, doc, 'number'), ...leafPaths(op.body!.schema, doc, 'string')].slice(0, 8)) {
        const payload = JSON.stringify(setAt(sample, path, '__HUGE__')).replace('"__HUGE__"', '1e400');
        sent.push(await send(op, `body ${path.join('.')}=1e400`, { payload }));
      }
    }
    expectAll(sent, (s) => s.status === 400 || bulkEntryFailedWith400(s));
  });

  it('a bad value in one bulk entry fails that entry alone, with 400', async () => {
    const scim = await account.request({
      method: 'POST',
      url: '/api/scim/v2/Bulk',
      as: credentials.scimBearerAuth,
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
        Operations: [
          {
            method: 'POST',
            bulkId: 'good',
            path: '/Users',
            data: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bulk-good@example.com' },
          },
          {
            method: 'POST',
            bulkId: 'bad',
            path: '/Users',
            data: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bulk\u0000bad@example.com' },
          },
        ],
      },
    });
    expect(scim.status, scim.text).toBe(200);
    expect(scim.body.Operations.map((o: { status: string }) => o.status)).toEqual(['201', '400']);
    expect(scim.body.Operations[1].response).toMatchObject({
      scimType: 'invalidValue',
      detail: 'data.userName must not contain a NUL character (U+0000)',
    });

    const embed = await account.request({
      method: 'POST',
      url: '/api/v1/embed-tenants/fuzz-tenant/users',
      as: account.admin,
      body: '{"users": [{"externalId": "bob"}, {"externalId": "eve", "email": "e\\ud800@example.com"}, {"externalId": "joe", "userProfile": {"x": 1e400}}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(embed.status, embed.text).toBe(200);
    expect(embed.body.succeeded).toEqual([{ index: 0, externalId: 'bob' }]);
    expect(embed.body.failed).toEqual([
      { index: 1, externalId: 'eve', error: { status: 400, message: 'email must not contain an unpaired UTF-16 surrogate' } },
      { index: 2, externalId: 'joe', error: { status: 400, message: 'userProfile.x must be a finite number' } },
    ]);
  });

  it.each(BAD_CURSORS.slice(0, 3))('a cursor that decodes to an id out of range (%s) gets 400', async (after) => {
    const sent: Sent[] = [];
    for (const op of operations.filter((o) => o.parameters.some((p) => p.name === 'after'))) {
      sent.push(await send(op, `after=${after}`, { url: urlOf(op, {}, `after=${after}`) }));
    }
    expectAll(sent, (s) => s.status === 400 && /after/.test(s.text));
  });
});

/** A bulk route answers 200 with each entry's own status: the bad entry failed with 400. */
function bulkEntryFailedWith400(sent: Sent): boolean {
  if (sent.status !== 200) return false;
  const body = JSON.parse(sent.text);
  const scim = body.Operations?.map((o: { status: string }) => Number(o.status));
  const embed = body.failed?.map((f: { error: { status: number } }) => f.error.status);
  const statuses: number[] = scim ?? embed ?? [];
  return statuses.length > 0 && statuses.every((status) => status === 400);
}

function encode(type: string, value: unknown): string {
  if (type !== 'application/x-www-form-urlencoded') return JSON.stringify(value);
  const form = Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => `${encodeURIComponent(k)}=${formValue(v)}`);
  return form.join('&');
}

/** Form values are percent-encoded by hand: encodeURIComponent refuses a lone surrogate. */
function formValue(v: unknown): string {
  return [...String(v)]
    .map((ch) => (/[\uD800-\uDFFF]/.test(ch) ? `%${ch === '\uD800' ? 'ED%A0%80' : 'ED%B0%80'}` : encodeURIComponent(ch)))
    .join('');
}

function validPathValue(op: Operation, name: string, existing: Record<string, string>): string {
  if (existing[name]) return existing[name];
  if (name === 'id' && op.path.includes('/user-groups/')) return existing.group!;
  const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
  return schema?.type === 'integer' ? '1' : 'acme';
}

function operationsOf(doc: SpecDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      return {
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        security: op.security ?? [],
        ...(type ? { body: { type, schema: content[type]!.schema ?? {} } } : {}),
      };
    }),
  );
}
