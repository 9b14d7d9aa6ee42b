import { setFlagsFromString } from 'node:v8';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

/**
 * initdb's 128MB of shared buffers live in PGlite's WASM heap, and PostgreSQL touches all of them
 * at start: 130 MiB of the embedded server's resident memory. Its one session reads pages the OS
 * keeps cached anyway, so 16MB loses it nothing measurable. Added to PGlite's own start parameters.
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

let compiling = 0;

/**
 * PGlite.create with the store's settings, its WASM compiled by V8's baseline compiler (Liftoff)
 * alone. By default V8 recompiles each function that gets hot with its optimising compiler: a
 * server's start made it do that for some 90 of PostgreSQL's functions, 1.4 s of CPU and 360 MB of
 * compiler memory, of which some 60-80 MiB stayed resident, fragmented in the allocator. The store's
 * queries are short, and spend their time crossing between JavaScript and WASM: a run of inserts,
 * lookups and updates went no slower without it, a catalog join about a quarter slower once warm.
 * V8 reads the flag when it compiles a module, so it is set around PGlite's compile only (counted,
 * for creates that overlap) and nothing compiled later, the engine's QuickJS included, is affected.
 */
export async function createPGlite(options: PGliteOptions = {}): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (compiling++ === 0) setFlagsFromString('--liftoff-only');
  try {
    return await PGlite.create({ ...options, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] });
  } finally {
    if (--compiling === 0) setFlagsFromString('--no-liftoff-only');
  }
}
