import { expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

describeOnStores(
  'tenant settings',
  (server) => {
    it('getTenantSettings: defaults and maxExternalUsers from PLINTH_MAX_EXTERNAL_USERS', async () => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url: '/api/v1/tenant-settings', as: account.member });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        useCreatorMode: false,
        bulkActionLimit: 1000,
        showDashboardChat: true,
        embeddingEnabled: true,
        embedFrameAncestors: null,
        maxExternalUsers: 777,
      });
    });

    it('updateTenantSettings changes only what is sent', async () => {
      const account = await server().newAccount();
      const response = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.admin,
        body: { useCreatorMode: true, showDashboardChat: false },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        useCreatorMode: true,
        bulkActionLimit: 1000,
        showDashboardChat: false,
        embeddingEnabled: true,
        embedFrameAncestors: null,
        maxExternalUsers: 777,
      });
      const limit = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.admin,
        body: { bulkActionLimit: 5 },
      });
      expect(limit.body).toMatchObject({ useCreatorMode: true, bulkActionLimit: 5 });
    });

    it.each([
      [{ bulkActionLimit: 0 }, 'bulkActionLimit'],
      [{ bulkActionLimit: 100_001 }, 'bulkActionLimit'],
      [{ bulkActionLimit: 1.5 }, 'bulkActionLimit'],
      [{ bulkActionLimit: '10' }, 'bulkActionLimit'],
      [{ embeddingEnabled: 'no' }, 'embeddingEnabled'],
      [{ embeddingEnabled: null }, 'embeddingEnabled'],
      [{ maxExternalUsers: 20_000 }, 'read-only'],
      [{ colour: 'red' }, 'colour'],
      [{}, 'properties'],
    ])('400 for %j', async (body, message) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'PATCH', url: '/api/v1/tenant-settings', as: account.admin, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('embeddingEnabled: on by default, turned off and on again by an admin', async () => {
      const account = await server().newAccount();
      const off = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.admin,
        body: { embeddingEnabled: false },
      });
      expect(off.body).toMatchObject({ embeddingEnabled: false, useCreatorMode: false, showDashboardChat: true });
      const read = await account.request({ method: 'GET', url: '/api/v1/tenant-settings', as: account.member });
      expect(read.body.embeddingEnabled).toBe(false);
      const member = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.member,
        body: { embeddingEnabled: true },
      });
      expect(member.status).toBe(403);
      const on = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.admin,
        body: { embeddingEnabled: true },
      });
      expect(on.body.embeddingEnabled).toBe(true);
    });

    it('maxExternalUsers is read-only and says where it is set', async () => {
      const account = await server().newAccount();
      const response = await account.request({
        method: 'PATCH',
        url: '/api/v1/tenant-settings',
        as: account.admin,
        body: { maxExternalUsers: 5 },
      });
      expect(response.body.error).toContain('PLINTH_MAX_EXTERNAL_USERS');
      expect((await server().services.tenantSettings.get(account.id)).maxExternalUsers).toBe(777);
    });

    authorizationSuite(server, cases);
  },
  { PLINTH_MAX_EXTERNAL_USERS: '777' },
);
