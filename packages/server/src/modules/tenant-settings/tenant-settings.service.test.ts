import { expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { describeOnStores } from '../../test-support/server.js';

describeOnStores(
  'tenant settings service',
  (server) => {
    const settings = () => server().services.tenantSettings;

    it('starts with the defaults and the installation-wide external user limit', async () => {
      const account = await server().newAccount();
      expect(await settings().get(account.id)).toEqual({
        useCreatorMode: false,
        bulkActionLimit: 1000,
        showDashboardChat: true,
        embeddingEnabled: true,
        embedFrameAncestors: null,
        maxExternalUsers: 4321,
      });
    });

    it('updates only what is supplied, per account', async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      await settings().update(account.id, { useCreatorMode: true });
      expect(await settings().update(account.id, { bulkActionLimit: 50 })).toMatchObject({
        useCreatorMode: true,
        bulkActionLimit: 50,
        showDashboardChat: true,
      });
      expect(await settings().get(other.id)).toMatchObject({ useCreatorMode: false, bulkActionLimit: 1000 });
    });

    it.each([
      [0, false],
      [1, true],
      [100_000, true],
      [100_001, false],
      [2.5, false],
    ])('bulkActionLimit %d allowed: %s', async (limit, ok) => {
      const account = await server().newAccount();
      const result = settings().update(account.id, { bulkActionLimit: limit });
      if (ok) await expect(result).resolves.toMatchObject({ bulkActionLimit: limit });
      else await expect(result).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bulkActionLimit') });
    });

    it('maxExternalUsers is read-only', async () => {
      const account = await server().newAccount();
      const error = await settings()
        .update(account.id, { maxExternalUsers: 5 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toMatch(/read-only.*PLINTH_MAX_EXTERNAL_USERS/);
    });

    it('embedFrameAncestors keeps plain http(s) origins, once each, and null lifts the limit', async () => {
      const account = await server().newAccount();
      const kept = await settings().update(account.id, {
        embedFrameAncestors: ['https://app.example.com', 'http://localhost:8080/', 'https://APP.example.com'],
      });
      expect(kept.embedFrameAncestors).toEqual(['https://app.example.com', 'http://localhost:8080']);
      expect((await settings().get(account.id)).embedFrameAncestors).toEqual(['https://app.example.com', 'http://localhost:8080']);
      expect((await settings().update(account.id, { embedFrameAncestors: null })).embedFrameAncestors).toBeNull();
    });

    it.each([
      'https://app.example.com/embed',
      'javascript:alert(1)',
      "https://a.example.com 'unsafe-inline'",
      'app.example.com',
      'https://u:p@a.example.com',
      'https://a.example.com?x=1',
      '*',
    ])('embedFrameAncestors refuses %s, naming it', async (origin) => {
      const account = await server().newAccount();
      const refused = settings().update(account.id, { embedFrameAncestors: ['https://ok.example.com', origin] });
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining(JSON.stringify(origin)) });
      expect((await settings().get(account.id)).embedFrameAncestors).toBeNull();
    });
  },
  { PLINTH_MAX_EXTERNAL_USERS: '4321' },
);
