import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, mintClaims } from './test-fixtures.js';

/**
 * generate-session with ids at their edges, through the route and a real store: a padded or blank
 * internalId, an externalId of exactly 255 and 256 characters. The parsing rules alone, case by
 * case, are in request-cases.test.ts.
 */
describeOnStores('generate-session ids at their edges', (server) => {
  describe('internalId', () => {
    it.each([
      ['padded with spaces', (email: string) => `  ${email}  `],
      ['padded with a tab and a newline', (email: string) => `\t${email}\n`],
    ])('%s names the same user', async (_label, padded) => {
      const account = await embedAccount(server());
      const claims = await mintClaims(account, { internalId: padded(account.member.email) });
      expect(claims.user).toEqual({ type: 'internal', id: account.member.id, email: account.member.email });
      expect(await account.footprint()).toMatchObject({ external_user: 0 });
    });

    it.each([
      ['empty', ''],
      ['only spaces', '   '],
      ['only a tab and a newline', '\t\n'],
    ])('%s is 400 and mints nothing', async (_label, internalId) => {
      const account = await embedAccount(server());
      const before = await account.footprint();
      const response = await account.generate({ internalId });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toBe('internalId must not be empty');
      expect(await account.footprint()).toEqual(before);
    });
  });

  describe('externalId', () => {
    it('exactly 255 characters is accepted, lowercased, and the user can be read back', async () => {
      const account = await embedAccount(server());
      const claims = await mintClaims(account, { externalId: `  ${'Q'.repeat(255)} ` });
      expect(JSON.stringify(claims.user)).toContain('q'.repeat(255));
      expect((await account.externalUser('q'.repeat(255)))?.externalId).toBe('q'.repeat(255));
    });

    it('256 characters is 400 and creates no user', async () => {
      const account = await embedAccount(server());
      const before = await account.footprint();
      const response = await account.generate({ externalId: 'q'.repeat(256) });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toBe('externalId must be at most 255 characters');
      expect(await account.footprint()).toEqual(before);
    });
  });
});
