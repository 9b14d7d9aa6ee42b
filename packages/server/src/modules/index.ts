import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PlinthModule } from './module.js';

/** This folder: every sub-folder with an index is a module. */
export const MODULES_DIR = fileURLToPath(new URL('.', import.meta.url));

/**
 * Sources under vitest and tsx end in .ts, the built server's in .js; a folder holds one or the
 * other as this file does.
 */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * The folders of `dir` that hold a module (an index), in name order: the order services, schemas,
 * routes and the spec's operations come in is the folders', the same on every start, so no list
 * decides it. A folder without an index (shared code such as demo/) is not a module.
 */
export function moduleFolders(dir = MODULES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, `index${EXTENSION}`)))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Every module of `dir`: the one PlinthModule each folder's index exports, named as its folder.
 * Adding a module is adding its folder; nothing central lists modules.
 */
export async function discoverModules(dir = MODULES_DIR): Promise<PlinthModule[]> {
  return Promise.all(
    moduleFolders(dir).map(async (folder) => {
      const exports = (await import(pathToFileURL(join(dir, folder, `index${EXTENSION}`)).href)) as Record<string, unknown>;
      const found = Object.values(exports).filter(isModule);
      if (found.length !== 1 || found[0]!.name !== folder) {
        const names = found.map((module) => `"${module.name}"`).join(', ') || 'none';
        throw new Error(`modules/${folder}/index must export one PlinthModule named "${folder}" (found ${names})`);
      }
      return found[0]!;
    }),
  );
}

function isModule(value: unknown): value is PlinthModule {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

let loading: Promise<readonly PlinthModule[]> | undefined;
let loaded: readonly PlinthModule[] | undefined;

/** The server's modules, discovered once per process. */
export function loadModules(): Promise<readonly PlinthModule[]> {
  return (loading ??= discoverModules().then((modules) => (loaded = modules)));
}

/** The modules once `loadModules` has run (services are built from them first, so anything after can ask). */
export function loadedModules(): readonly PlinthModule[] {
  if (!loaded) throw new Error('The modules are not loaded yet: await loadModules() first');
  return loaded;
}
