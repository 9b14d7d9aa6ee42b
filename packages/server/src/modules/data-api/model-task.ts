import type { DataModel } from '@plinth/semantic';
import { semanticEngine } from '../../workers/engine.js';

/**
 * Runs on a worker pool thread (see models.ts): compile() runs a model's JavaScript files in a
 * sandbox that blocks its thread, so it never runs on the event loop that answers queries. The
 * compiled model is plain data (maps, arrays, objects), so it crosses back by structured clone,
 * shared references (a view member's target) included.
 */
export async function compileModel(files: Array<[string, string]>): Promise<DataModel> {
  const { compile } = await semanticEngine();
  const result = compile(new Map(files));
  if (!result.valid) throw new Error(result.errors.map((e) => `${e.fileName}: ${e.message}`).join('; '));
  return result.model;
}
