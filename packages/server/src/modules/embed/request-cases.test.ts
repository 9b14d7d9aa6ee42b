import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { parseSessionRequest } from './request.js';
import type { GenerateSessionInput } from './schemas.js';

/**
 * The store-free rules of generate-session (2.4–2.10) case by case: which fields go with which,
 * padded and blank ids, and where each field ends up. The same requests through the route and a
 * real store are in generate-session.test.ts and session-ids.test.ts.
 */

const base = { deploymentId: 7 };
const parse = (input: Record<string, unknown>) => parseSessionRequest({ ...base, ...input } as GenerateSessionInput);

function rejection(input: Record<string, unknown>): { status: number; message: string } {
  try {
    parse(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, message: (error as ApiError).message };
  }
  throw new Error('expected a rejection');
}
const badRequest = (message: string) => ({ status: 400, message });

describe('exactly one of externalId and internalId', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['both', { externalId: 'ann', internalId: 'admin@example.com' }, 'Send exactly one of externalId and internalId, not both'],
    ['both, even when blank', { externalId: '', internalId: '' }, 'Send exactly one of externalId and internalId, not both'],
    ['neither', {}, 'Send exactly one of externalId and internalId'],
    ['neither, with other fields', { email: 'a@example.com', creatorMode: true }, 'Send exactly one of externalId and internalId'],
  ])('%s', (_label, input, message) => {
    expect(rejection(input)).toEqual(badRequest(message));
  });
});

describe('internalId', () => {
  it.each([
    ['as sent', 'admin@example.com', 'admin@example.com'],
    ['padded with spaces', '  admin@example.com  ', 'admin@example.com'],
    ['padded with a tab and a newline', '\tadmin@example.com\n', 'admin@example.com'],
    ['case kept (the store compares it)', 'Admin@Example.com', 'Admin@Example.com'],
  ])('a username %s', (_label, internalId, username) => {
    expect(parse({ internalId }).user).toEqual({ kind: 'internal', username });
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['only whitespace of other kinds', '\t\n '],
  ])('%s is refused', (_label, internalId) => {
    expect(rejection({ internalId })).toEqual(badRequest('internalId must not be empty'));
  });

  it.each([
    ['email', { email: 'a@example.com' }],
    ['userProfile', { userProfile: { displayName: 'A' } }],
    ['userAttributes', { userAttributes: [] }],
    ['groups', { groups: [] }],
    ['userAttributeDefinitions', { userAttributeDefinitions: [] }],
    ['groupDefinitions', { groupDefinitions: [] }],
    ['securityContext', { securityContext: {} }],
  ])('%s cannot be sent with it, even when empty', (field, extra) => {
    expect(rejection({ internalId: 'admin@example.com', ...extra })).toEqual(
      badRequest(`${field} cannot be sent with internalId: the internal user's own permissions apply`),
    );
  });

  it('names every refused field, in a fixed order, before looking at the id itself', () => {
    expect(rejection({ internalId: '  ', securityContext: { a: 1 }, groups: ['g'], email: 'a@example.com' })).toEqual(
      badRequest("email, groups, securityContext cannot be sent with internalId: the internal user's own permissions apply"),
    );
  });

  it('keeps the fields that apply to any session', () => {
    expect(
      parse({ internalId: 'admin@example.com', embedTenantName: 'acme-corp', creatorMode: true, settings: { showDashboardChat: false } }),
    ).toEqual({
      deploymentId: 7,
      embedTenantName: 'acme-corp',
      creatorMode: true,
      securityContext: null,
      showDashboardChat: false,
      roles: [],
      publicDashboardId: null,
      embedTheme: null,
      user: { kind: 'internal', username: 'admin@example.com' },
    });
  });
});

describe('fields of every session', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'defaults',
      {},
      { deploymentId: 7, embedTenantName: undefined, creatorMode: false, securityContext: null, showDashboardChat: undefined },
    ],
    ['creatorMode true', { creatorMode: true }, { creatorMode: true }],
    ['creatorMode false', { creatorMode: false }, { creatorMode: false }],
    ['a security context, as sent', { securityContext: { region: 'emea', n: [1] } }, { securityContext: { region: 'emea', n: [1] } }],
    ['an empty security context is kept', { securityContext: {} }, { securityContext: {} }],
    ['settings without showDashboardChat inherit', { settings: {} }, { showDashboardChat: undefined }],
    ['showDashboardChat false', { settings: { showDashboardChat: false } }, { showDashboardChat: false }],
    ['showDashboardChat true', { settings: { showDashboardChat: true } }, { showDashboardChat: true }],
    ['the embed tenant', { embedTenantName: 'acme-corp' }, { embedTenantName: 'acme-corp' }],
  ])('%s', (_label, input, expected) => {
    const request = parse({ externalId: 'ann', ...input });
    expect(request).toMatchObject(expected);
    for (const [key, value] of Object.entries(expected)) expect(request[key as keyof typeof request]).toStrictEqual(value);
  });
});

describe('externalId and the external user it describes', () => {
  it.each([
    ['trimmed and lowercased', '  Ann.Lee  ', 'ann.lee'],
    ['exactly 255 characters', 'A'.repeat(255), 'a'.repeat(255)],
  ])('%s', (_label, externalId, expected) => {
    const request = parse({ externalId });
    expect(request.user).toMatchObject({ kind: 'external', change: { externalId: expected } });
  });

  it.each([
    ['256 characters', 'a'.repeat(256), 'externalId must be at most 255 characters'],
    ['only whitespace', ' \t ', 'externalId must not be empty or only whitespace'],
    ['empty', '', 'externalId must not be empty or only whitespace'],
  ])('%s is refused', (_label, externalId, message) => {
    expect(rejection({ externalId })).toEqual(badRequest(message));
  });

  it('nothing sent: an empty change, no definitions', () => {
    const { user } = parse({ externalId: 'ann' });
    // Strict: `{ account: undefined }` would mean "clear the account's groups", not "keep them".
    expect(user).toStrictEqual({
      kind: 'external',
      change: { externalId: 'ann', profile: { email: undefined, displayName: undefined, picture: undefined }, groups: {}, values: {} },
      definitions: { groupDefinitions: undefined, userAttributeDefinitions: undefined },
      // Not ephemeral: no TTL, and the user is kept.
      ephemeralTtlSeconds: undefined,
    });
  });

  it('the profile: email trimmed, display name and picture as sent', () => {
    const { user } = parse({
      externalId: 'ann',
      email: ' ann@example.com ',
      userProfile: { displayName: ' Ann ', picture: 'https://cdn.example.com/ann.png' },
    });
    expect(user).toMatchObject({
      change: { profile: { email: 'ann@example.com', displayName: ' Ann ', picture: 'https://cdn.example.com/ann.png' } },
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an invalid email', { email: 'not-an-address' }, 'email "not-an-address" is not a valid email address'],
    [
      'a picture that is not an http(s) URL',
      { userProfile: { picture: 'ftp://example.com/a.png' } },
      'userProfile.picture must be an absolute http:// or https:// URL',
    ],
  ])('%s is refused', (_label, input, message) => {
    expect(rejection({ externalId: 'ann', ...input })).toEqual(badRequest(message));
  });

  it.each<[string, boolean | undefined, 'account' | 'tenant']>([
    ['without creator mode, groups and values name the account catalog', undefined, 'account'],
    ['with creatorMode false, the account catalog', false, 'account'],
    ['in creator mode, the embed tenant catalog', true, 'tenant'],
  ])('%s', (_label, creatorMode, catalog) => {
    const userAttributes = [{ name: 'region', value: 'emea' }];
    const { user } = parse({ externalId: 'ann', creatorMode, embedTenantName: 'acme-corp', groups: ['g1', 'g2'], userAttributes });
    expect(user).toMatchObject({ change: { groups: { [catalog]: ['g1', 'g2'] }, values: { [catalog]: userAttributes } } });
    if (user.kind !== 'external') throw new Error('external expected');
    expect(Object.keys(user.change.groups)).toEqual([catalog]);
    expect(Object.keys(user.change.values)).toEqual([catalog]);
  });

  it('empty lists are kept: they clear', () => {
    const { user } = parse({ externalId: 'ann', groups: [], userAttributes: [] });
    expect(user).toMatchObject({ change: { groups: { account: [] }, values: { account: [] } } });
  });

  it('definitions are passed on as sent', () => {
    const userAttributeDefinitions = [{ name: 'region', type: 'string' }];
    const groupDefinitions = [{ name: 'editors', description: 'Edit' }];
    const { user } = parse({
      externalId: 'ann',
      creatorMode: true,
      embedTenantName: 'acme-corp',
      userAttributeDefinitions,
      groupDefinitions,
    });
    expect(user).toMatchObject({ definitions: { userAttributeDefinitions, groupDefinitions } });
  });
});

describe('definitions need creator mode and an embed tenant (2.8, 2.9)', () => {
  it.each(['userAttributeDefinitions', 'groupDefinitions'])('%s', (field) => {
    expect(rejection({ externalId: 'ann', [field]: [] })).toEqual(badRequest(`${field} requires creatorMode: true`));
    expect(rejection({ externalId: 'ann', creatorMode: false, embedTenantName: 'acme-corp', [field]: [] })).toEqual(
      badRequest(`${field} requires creatorMode: true`),
    );
    expect(rejection({ externalId: 'ann', creatorMode: true, [field]: [] })).toEqual(badRequest(`${field} requires an embedTenantName`));
    expect(parse({ externalId: 'ann', creatorMode: true, embedTenantName: 'acme-corp', [field]: [] }).user.kind).toBe('external');
  });

  it('the first definition field is reported first', () => {
    expect(rejection({ externalId: 'ann', groupDefinitions: [], userAttributeDefinitions: [] })).toEqual(
      badRequest('userAttributeDefinitions requires creatorMode: true'),
    );
  });
});

describe('a name twice in one list (2.6, 2.8, 2.9)', () => {
  const tenant = { creatorMode: true, embedTenantName: 'acme-corp' };
  it.each<[string, Record<string, unknown>]>([
    [
      'userAttributes',
      {
        userAttributes: [
          { name: 'x', value: 1 },
          { name: 'x', value: 2 },
        ],
      },
    ],
    [
      'userAttributeDefinitions',
      {
        ...tenant,
        userAttributeDefinitions: [
          { name: 'x', type: 'string' },
          { name: 'x', type: 'number' },
        ],
      },
    ],
    ['groupDefinitions', { ...tenant, groupDefinitions: [{ name: 'x' }, { name: 'x', description: 'again' }] }],
  ])('%s', (field, input) => {
    expect(rejection({ externalId: 'ann', ...input })).toEqual(badRequest(`Duplicate name "x" in ${field}`));
  });

  it('distinct names pass', () => {
    const input = {
      ...tenant,
      userAttributes: [
        { name: 'x', value: 1 },
        { name: 'y', value: 2 },
      ],
      userAttributeDefinitions: [
        { name: 'x', type: 'number' },
        { name: 'y', type: 'number' },
      ],
      groupDefinitions: [{ name: 'x' }, { name: 'y' }],
    };
    expect(parse({ externalId: 'ann', ...input }).user.kind).toBe('external');
  });
});

describe('the Cube Cloud fields of the reference body (issue 10)', () => {
  const internalOnly = "cannot be sent with internalId: the internal user's own permissions apply";

  it.each<[string, Record<string, unknown>, string[]]>([
    ['none sent', {}, []],
    ['sorted, each once', { roles: ['viewer', 'analyst', 'viewer'] }, ['analyst', 'viewer']],
    ['null is none', { roles: null }, []],
  ])('roles: %s', (_label, input, roles) => {
    expect(parse({ externalId: 'ann', ...input }).roles).toEqual(roles);
  });

  it.each([[''], ['   ']])('roles: an empty name (%j) is refused', (role) => {
    expect(rejection({ externalId: 'ann', roles: ['viewer', role] })).toEqual(badRequest('roles must not contain an empty name'));
  });

  it.each<[string, Record<string, unknown>]>([
    ['roles', { roles: ['viewer'] }],
    ['isEphemeral', { isEphemeral: true }],
    ['ephemeralTtlSeconds', { ephemeralTtlSeconds: 600 }],
  ])('%s cannot go with internalId', (field, input) => {
    expect(rejection({ internalId: 'admin@example.com', ...input })).toEqual(badRequest(`${field} ${internalOnly}`));
  });

  it.each<[string, Record<string, unknown>, number | undefined]>([
    ['not ephemeral', {}, undefined],
    ['isEphemeral false', { isEphemeral: false }, undefined],
    ['ephemeral, the token lifetime by default', { isEphemeral: true }, 86_400],
    ['ephemeral for as long as asked', { isEphemeral: true, ephemeralTtlSeconds: 120 }, 120],
    ['a null TTL is the default', { isEphemeral: true, ephemeralTtlSeconds: null }, 86_400],
  ])('ephemeral users: %s', (_label, input, ttl) => {
    const { user } = parse({ externalId: 'ann', ...input });
    expect(user.kind === 'external' && user.ephemeralTtlSeconds).toBe(ttl);
  });

  it.each<[string, Record<string, unknown>]>([
    ['without isEphemeral', { ephemeralTtlSeconds: 120 }],
    ['with isEphemeral false', { isEphemeral: false, ephemeralTtlSeconds: 120 }],
  ])('ephemeralTtlSeconds %s is refused', (_label, input) => {
    expect(rejection({ externalId: 'ann', ...input })).toEqual(badRequest('ephemeralTtlSeconds requires isEphemeral: true'));
  });

  it('publicDashboardId and embedTheme are carried as sent, and null when not', () => {
    const theme = { primaryColor: '#112233' };
    expect(parse({ externalId: 'ann', publicDashboardId: 'dash-1', embedTheme: theme })).toMatchObject({
      publicDashboardId: 'dash-1',
      embedTheme: theme,
    });
    expect(parse({ internalId: 'admin@example.com', publicDashboardId: 'dash-2' })).toMatchObject({
      publicDashboardId: 'dash-2',
      embedTheme: null,
    });
    expect(parse({ externalId: 'ann', publicDashboardId: null, embedTheme: null })).toMatchObject({
      publicDashboardId: null,
      embedTheme: null,
    });
  });

  it('a userAttributes item without value clears it, as null does; a value is kept', () => {
    const { user } = parse({
      externalId: 'ann',
      userAttributes: [{ name: 'region' }, { name: 'tier', value: null }, { name: 'size', value: 3 }],
    });
    expect(user.kind === 'external' && user.change.values).toEqual({
      account: [
        { name: 'region', value: null },
        { name: 'tier', value: null },
        { name: 'size', value: 3 },
      ],
    });
  });

  it('null for an optional field is the same as leaving it out', () => {
    const nulls = {
      email: null,
      userProfile: null,
      groups: null,
      userAttributes: null,
      embedTenantName: null,
      settings: null,
      securityContext: null,
    };
    expect(parse({ externalId: 'ann', ...nulls })).toEqual(parse({ externalId: 'ann' }));
  });
});
