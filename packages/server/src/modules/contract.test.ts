import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError } from '../http/common-schemas.js';
import { moduleTags, openApiPlugin } from '../http/openapi.js';
import { buildPermissionCatalog, permissionCatalog, type Permission } from '../http/permissions.js';
import { installCacheTriggers, installedTriggers } from '../store/cache-triggers.js';
import { loadMigrations, migrationFiles } from '../store/migration-files.js';
import type { Store } from '../store/store.js';
import { openTestStore } from '../test-support/stores.js';
import { testConfig } from '../test-support/server.js';
import { discoverModules, loadModules, moduleFolders } from './index.js';
import { retentionRules } from './retention/rules.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Beside src/, so the module's own imports (kysely) resolve as a real module's do; removed after. */
const scratch = () => mkdtempSync(join(SRC, '..', '.test-modules-'));

/**
 * The files that gather what modules contribute. Adding a module must edit none of them: each
 * finds the modules by their folders, so none imports a module or names one.
 */
const CENTRAL_FILES = [
  'app.ts',
  'services.ts',
  'jobs/index.ts',
  'modules/index.ts',
  'modules/module.ts',
  'modules/retention/rules.ts',
  'modules/retention/sweep.ts',
  'store/schema.ts',
  'store/migrate.ts',
  'store/migration-files.ts',
  'store/cache-triggers.ts',
  'http/openapi.ts',
  'http/permissions.ts',
  'test-support/authorization-coverage.test.ts',
];

/** The instance's master key opens the secret box every module's services are built with, before any module is. */
const SHARED_BY_EVERY_MODULE = new Set(['services.ts imports ./modules/accounts/master-key.js']);

describe('the module contract', () => {
  it('no central file imports a module or names one', () => {
    const folders = moduleFolders();
    const named = CENTRAL_FILES.flatMap((file) => {
      const source = readFileSync(join(SRC, file), 'utf8');
      const imports = [...source.matchAll(/from '((?:\.\.?\/)+(?:modules\/)?([a-z-]+)\/[^']*)'/g)]
        .filter(([, , folder]) => folders.includes(folder!) && !file.startsWith(`modules/${folder}/`))
        .map(([, path]) => `${file} imports ${path}`);
      const names = folders
        .filter((folder) => new RegExp(`['"\`]${folder}['"\`]`).test(source))
        .map((folder) => `${file} names "${folder}"`);
      return [...imports, ...names];
    });
    expect(named.filter((line) => !SHARED_BY_EVERY_MODULE.has(line))).toEqual([]);
  });

  describe('a module added as a folder, with nothing else edited', () => {
    let dir: string;
    let store: Store;
    beforeAll(async () => {
      dir = scratch();
      writeModule(dir);
      store = await openTestStore('pglite');
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('is found, named as its folder; a folder without an index is shared code, not a module', async () => {
      expect((await discoverModules(dir)).map((module) => module.name)).toEqual(['widgets']);
    });

    it('brings its migration, applied in its number among the shared ones, and its table', async () => {
      const files = migrationFiles(dir);
      expect(files.at(-1)).toMatchObject({ name: '9999_widgets', owner: 'widgets' });
      expect(files.map((file) => file.name)).toContain('0001_foundation');
      const { ['9999_widgets']: migration } = await loadMigrations(files.filter((file) => file.owner === 'widgets'));
      await migration!.up(store.db);
      const { rows } = await sql<{ name: string }>`select to_regclass('widget')::text as name`.execute(store.db);
      expect(rows).toEqual([{ name: 'widget' }]);
    });

    it("gets the triggers of its cache declaration, and its retention rule joins the sweep's", async () => {
      const modules = [...(await loadModules()), ...(await discoverModules(dir))];
      const declarations = modules.flatMap((module) => (module.caches ?? []).map((cache) => cache.declaration));
      await installCacheTriggers(store, declarations);
      const triggers = await installedTriggers(store.db);
      expect(triggers.filter((trigger) => trigger.table === 'widget').map((trigger) => trigger.channel)).toEqual(['plinth_widgets']);
      expect(retentionRules(modules).map((rule) => rule.table)).toContain('widget');
    });

    it('serves its routes, listed in the spec under the tag it declares', async () => {
      const modules = await discoverModules(dir);
      const app = Fastify();
      app.addSchema(PlatformError);
      await app.register(openApiPlugin, { config: testConfig(), tags: moduleTags(modules) });
      for (const module of modules) if (module.routes) await app.register(module.routes);
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/api/v1/widgets' })).json()).toEqual({ widgets: [] });
      const spec = app.swagger() as { tags: Array<{ name: string }>; paths: Record<string, unknown> };
      expect(spec.tags.map((tag) => tag.name)).toEqual(['Widgets']);
      expect(Object.keys(spec.paths)).toEqual(['/api/v1/widgets']);
      await app.close();
    });

    it('declares its own permission: listed with what it allows, held by the roles it names, offered to keys', async () => {
      const catalog = buildPermissionCatalog([...(await loadModules()), ...(await discoverModules(dir))]);
      const action = 'WidgetsManage' as Permission;
      expect(catalog.plinthActions.get(action as never)).toBe('Create, rename and delete the widgets of the account.');
      expect([catalog.roles.admin.has(action), catalog.roles.member.has(action)]).toEqual([true, false]);
      expect(catalog.keys).toContain(action);
      expect(catalog.accountWide.has(action)).toBe(false);
      // The server's own actions are all still there, beside the new one.
      for (const [name] of permissionCatalog().plinthActions) expect(catalog.plinthActions.has(name)).toBe(true);
    });

    it('a permission two modules declare is refused, naming both', async () => {
      const [widgets] = await discoverModules(dir);
      expect(() => buildPermissionCatalog([widgets!, { ...widgets!, name: 'gadgets' }])).toThrow(
        'Permission WidgetsManage is declared by modules/gadgets and by modules/widgets',
      );
      const [reference] = [{ name: 'gadgets', permissions: { DeploymentRead: { description: 'Read deployments.' } } }];
      expect(() => buildPermissionCatalog([reference as never])).toThrow(
        'Permission DeploymentRead is declared by modules/gadgets and by the reference',
      );
    });

    it('a folder whose index names another module is refused at start, naming both', async () => {
      const other = scratch();
      try {
        writeModule(other, 'gadgets');
        await expect(discoverModules(other)).rejects.toThrow(
          'modules/gadgets/index must export one PlinthModule named "gadgets" (found "widgets")',
        );
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });
  });
});

/** A whole module in plain code, as a new one would be written: a table, its migration, a cache, retention, a tag, a permission, a route. */
function writeModule(dir: string, folder = 'widgets') {
  mkdirSync(join(dir, folder, 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'shared-helpers'));
  writeFileSync(join(dir, 'shared-helpers', 'format.ts'), 'export const format = (value: unknown) => String(value);\n');
  writeFileSync(
    join(dir, folder, 'index.ts'),
    `import { sql } from 'kysely';
export const widgetsModule = {
  name: 'widgets',
  tables: ['widget'],
  tags: { Widgets: 'Widgets of the account.' },
  permissions: { WidgetsManage: { description: 'Create, rename and delete the widgets of the account.', roles: ['admin'], keys: true } },
  caches: [{ declaration: { channel: 'plinth_widgets', tables: { widget: { updates: ['name'] } } }, cache: () => ({ forgetAccount() {}, forgetAll() {} }) }],
  retention: [{ table: 'widget', key: 'id', expired: (now: number) => sql\`created_at < \${new Date(now)}\` }],
  routes: async (app: any) => {
    app.get('/api/v1/widgets', { schema: { operationId: 'listWidgets', summary: 'List widgets', tags: ['Widgets'] }, config: { auth: 'public' } }, async () => ({ widgets: [] }));
  },
};
`,
  );
  writeFileSync(
    join(dir, folder, 'migrations', '9999_widgets.ts'),
    `import { sql } from 'kysely';
export async function up(db: any) {
  await sql\`create table widget (id serial primary key, account_id integer not null, name text not null, created_at timestamptz not null default now())\`.execute(db);
}
`,
  );
}
