import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlinthModule } from './module.js';
import { STORE_TABLES } from '../store/tables.js';
import { shippedSources, tablesNamedIn } from '../test-support/table-access.js';
import { loadModules } from './index.js';

/**
 * A module reaches another only through what that one offers: its service, its schemas, its
 * `public.ts` and its module declaration. Reaching into another module's repos, writers or caches
 * (as embed once did into embed-tenants) bypasses the invariants its service keeps. Tests may
 * reach anywhere.
 */
const OFFERED = new Set(['service', 'schemas', 'public', 'index', 'test-fixtures']);

/** Imports of helpers from before the rule, each to become part of its module's public.ts; new ones fail. */
const GRANDFATHERED = new Set(['embed -> user-attributes/check', 'groups -> users/view']);

function crossModuleImports(): string[] {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const found = new Set<string>();
  for (const module of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(`${root}/${module.name}`).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const source = readFileSync(`${root}/${module.name}/${file}`, 'utf8');
      for (const [, other, target] of source.matchAll(/from '\.\.\/([a-z-]+)\/([a-z-]+)\.js'/g)) {
        if (other !== module.name) found.add(`${module.name} -> ${other}/${target}`);
      }
    }
  }
  return [...found].sort();
}

describe('module boundaries', () => {
  const imports = crossModuleImports();

  it('a module imports another only through what it offers', () => {
    expect(imports.filter((i) => !OFFERED.has(i.split('/')[1]!) && !GRANDFATHERED.has(i))).toEqual([]);
  });

  it('every grandfathered import is still there (remove it here once it is gone)', () => {
    expect([...GRANDFATHERED].filter((i) => !imports.includes(i))).toEqual([]);
  });
});

/** `module -> table (file:line)` for each query a module's shipped source makes on a table another module owns. */
function crossModuleTableAccess(modules: readonly PlinthModule[]): string[] {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const owner = new Map<string, string>();
  for (const module of modules) for (const table of module.tables ?? []) owner.set(table, module.name);
  const found: string[] = [];
  for (const file of shippedSources(fileURLToPath(new URL('../../tsconfig.json', import.meta.url)))) {
    const [module, ...rest] = relative(root, file).split(sep);
    if (!module || rest.length === 0 || module.startsWith('..')) continue;
    for (const { table, at } of tablesNamedIn(file, root)) {
      // The job queue is the store's, shared by every module's background work (store/tables.ts).
      if (STORE_TABLES.includes(table) || !owner.has(table) || owner.get(table) === module) continue;
      found.push(`${module} -> ${table} (${at})`);
    }
  }
  return found.sort();
}

describe('table ownership', async () => {
  const accesses = crossModuleTableAccess(await loadModules());

  it("a module queries only its own tables: another module's go through that module's public.ts", () => {
    expect(accesses).toEqual([]);
  });
});
