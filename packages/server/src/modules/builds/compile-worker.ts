import { parentPort, workerData } from 'node:worker_threads';
import type { CompileError } from '@plinth/semantic';

/**
 * The compile thread (see compiler.ts). packages/semantic's compile() blocks its thread while a
 * JavaScript model file runs in its sandbox, so it runs here and never on the server's event loop.
 * The engine is imported from where the parent says: its sources under vitest, the package from dist.
 */
export interface CompileRequest {
  id: number;
  files: Array<[string, string]>;
}

export type CompileReply =
  { id: number; ok: true; valid: boolean; errors: CompileError[]; cubesCount: number } | { id: number; ok: false; message: string };

type Semantic = typeof import('@plinth/semantic');
const { compile } = (await import((workerData as { semantic: string }).semantic)) as Semantic;

parentPort!.on('message', (request: CompileRequest) => {
  let reply: CompileReply;
  try {
    const result = compile(new Map(request.files));
    // Only the plain fields cross the thread boundary: the model itself stays here.
    const errors = result.errors.map(({ fileName, line, column, message }) => ({
      fileName,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      message,
    }));
    reply = { id: request.id, ok: true, valid: result.valid, errors, cubesCount: result.cubesCount };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
