import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createServices } from '../../services.js';
import { openTestStore, storeKinds } from '../../test-support/stores.js';
import { testConfig } from '../../test-support/server.js';
import { bootstrap, UnknownTenantError } from './bootstrap.js';

// Each test opens a store of its own, which is slow on a loaded machine.
describe.each(storeKinds)('bootstrap on an empty store [%s] (issue 2 point 4)', { timeout: 120_000 }, (kind) => {
  const withStore = async (overrides: Record<string, string>, body: (ctx: Awaited<ReturnType<typeof setup>>) => Promise<void>) => {
    const ctx = await setup(overrides);
    try {
      await body(ctx);
    } finally {
      await ctx.store.close();
      rmSync(ctx.dataDir, { recursive: true, force: true });
    }
  };
  const setup = async (overrides: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plinth-boot-'));
    const config = testConfig({ PLINTH_DATA_DIR: dataDir, PLINTH_BASE_DOMAIN: '', ...overrides });
    const store = await openTestStore(kind);
    const services = await createServices(store, config);
    return { dataDir, config, store, services };
  };

  it('creates the account, an admin and an unscoped admin key, written to bootstrap.json with mode 0600', async () => {
    await withStore({ PLINTH_TENANT: 'acme' }, async ({ dataDir, config, store, services }) => {
      const result = await bootstrap(store, services, config);
      expect(result).toMatchObject({ created: true, tenant: 'acme', baseUrl: 'http://127.0.0.1:4000' });
      expect(result.apiKey).toMatch(/^sk-/);
      const file = join(dataDir, 'bootstrap.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ baseUrl: result.baseUrl, tenant: 'acme', apiKey: result.apiKey });

      const app = await buildApp({ config, store, services, log: false });
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: { host: '127.0.0.1:4000', authorization: `Api-Key ${result.apiKey}` },
        payload: { name: 'second' },
      });
      expect(response.statusCode).toBe(201);
      await app.close();
    });
  });

  it('uses PLINTH_BOOTSTRAP_API_KEY when set, and neither returns it to print nor saves it (issue 10, item 7)', async () => {
    const key = 'sk-bootstrapbootstrapbootstrap01';
    await withStore({ PLINTH_BOOTSTRAP_API_KEY: key }, async ({ dataDir, config, store, services }) => {
      const result = await bootstrap(store, services, config);
      expect(result).toEqual({ created: true, baseUrl: 'http://127.0.0.1:4000', tenant: 'demo' });
      expect(existsSync(join(dataDir, 'bootstrap.json'))).toBe(false);
      const app = await buildApp({ config, store, services, log: false });
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/api-keys',
        headers: { host: '127.0.0.1:4000', authorization: `Api-Key ${key}` },
      });
      expect(response.statusCode).toBe(200);
      await app.close();
    });
  });

  it('refuses an unknown PLINTH_TENANT on a store that has accounts, creating nothing (issue 10, accounts)', async () => {
    await withStore({}, async ({ config, store, services }) => {
      expect(await bootstrap(store, services, config)).toMatchObject({ created: true, tenant: 'demo' });
      const typo = testConfig({ PLINTH_DATA_DIR: config.dataDir, PLINTH_BASE_DOMAIN: '', PLINTH_TENANT: 'demmo' });
      await expect(bootstrap(store, services, typo)).rejects.toThrow(
        new UnknownTenantError(
          'PLINTH_TENANT "demmo" names no account in this store (it has demo); ' +
            'create it with `plinth-server accounts create demmo` or set PLINTH_TENANT to an existing account',
        ),
      );
      const accounts = await store.db.selectFrom('account').select('name').execute();
      expect(accounts.map((a) => a.name)).toEqual(['demo']);
    });
  });

  it('on restart creates nothing twice and does not fail, also when two servers race', async () => {
    await withStore({}, async ({ config, store, services }) => {
      const results = await Promise.all([bootstrap(store, services, config), bootstrap(store, services, config)]);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const again = await bootstrap(store, services, config);
      expect(again).toMatchObject({ created: false });
      expect(again.apiKey).toBeUndefined();
      const counts = await Promise.all(
        (['account', 'app_user', 'api_key'] as const).map((table) =>
          store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow(),
        ),
      );
      expect(counts.map((c) => c.n)).toEqual([1, 1, 1]);
    });
  });
});
