import { semanticEngine } from '../../workers/engine.js';
import type { CompileSummary } from './public.js';

/**
 * Runs on a worker pool thread (see compiler.ts): packages/semantic's compile() blocks its thread
 * while a JavaScript model file runs in its sandbox, so it never runs on the server's event loop.
 */
export async function compileSummary(files: Array<[string, string]>): Promise<CompileSummary> {
  const { compile } = await semanticEngine();
  const result = compile(new Map(files));
  // Only the plain fields cross the thread boundary: the model itself stays here.
  const errors = result.errors.map(({ fileName, line, column, message }) => ({
    fileName,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    message,
  }));
  return { valid: result.valid, errors, cubesCount: result.cubesCount };
}
