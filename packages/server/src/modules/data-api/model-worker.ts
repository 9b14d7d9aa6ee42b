import { parentPort, workerData } from 'node:worker_threads';
import type { DataModel } from '@plinth/semantic';

/**
 * The data API's compile thread (see models.ts). compile() runs a model's JavaScript files in a
 * sandbox that blocks its thread, so it runs here and never on the event loop that answers queries.
 * The compiled model is plain data (maps, arrays, objects), so it crosses back by structured clone,
 * shared references (a view member's target) included.
 */
export interface ModelRequest {
  id: number;
  files: Array<[string, string]>;
}

export type ModelReply = { id: number; ok: true; model: DataModel } | { id: number; ok: false; message: string };

type Semantic = typeof import('@plinth/semantic');
const { compile } = (await import((workerData as { semantic: string }).semantic)) as Semantic;

parentPort!.on('message', (request: ModelRequest) => {
  let reply: ModelReply;
  try {
    const result = compile(new Map(request.files));
    reply = result.valid
      ? { id: request.id, ok: true, model: result.model }
      : { id: request.id, ok: false, message: result.errors.map((e) => `${e.fileName}: ${e.message}`).join('; ') };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
