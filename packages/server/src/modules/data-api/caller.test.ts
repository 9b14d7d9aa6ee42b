import { describe, expect, it } from 'vitest';
import type { EmbedTokenPrincipal, Principal } from '../../http/principal.js';
import { callerOf } from './caller.js';

const embed = (deploymentId: number, securityContext: Record<string, unknown> | null): EmbedTokenPrincipal =>
  ({
    kind: 'embedToken',
    accountId: 1,
    claims: { deploymentId, groups: ['sales'], userAttributes: { region: 'EU' }, securityContext },
  }) as unknown as EmbedTokenPrincipal;

describe('callerOf: who a token is, as access policies see it', () => {
  it.each<[string, Principal, object]>([
    [
      'a data API token brings its signed security context only',
      { kind: 'dataToken', accountId: 1, claims: { deploymentId: 7, securityContext: { tenant: 'a' }, expiresAt: null } },
      { groups: [], userAttributes: {}, securityContext: { tenant: 'a' } },
    ],
    [
      'an embed token brings its groups and attribute values',
      embed(7, { tenant: 'b' }),
      { groups: ['sales'], userAttributes: { region: 'EU' }, securityContext: { tenant: 'b' } },
    ],
    ['an embed token without a security context has an empty one', embed(7, null), { securityContext: {} }],
  ])('%s', (_name, principal, expected) => {
    expect(callerOf(principal, 7)).toMatchObject(expected);
  });

  it('refuses a token of another deployment as Cube does', () => {
    expect(() => callerOf(embed(8, null), 7)).toThrow('Invalid token');
    expect(() =>
      callerOf({ kind: 'dataToken', accountId: 1, claims: { deploymentId: 8, securityContext: {}, expiresAt: null } }, 7),
    ).toThrow('Invalid token');
  });
});
