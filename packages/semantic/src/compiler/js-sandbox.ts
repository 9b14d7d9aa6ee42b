import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { isObj, type Obj } from './fields.js';
import { PRELUDE } from './js-prelude.js';

/**
 * JavaScript model files run in QuickJS compiled to WebAssembly (sandbox/model-worker.mjs), not in
 * Node: Node's `vm` shares the process, while a WASM instance has nothing but the memory it is
 * given. The engine runs on a worker thread that this thread waits for synchronously, so
 * `compile()` stays synchronous and a file that will not stop can be cut off.
 */
const WORKER = new URL('../../sandbox/model-worker.mjs', import.meta.url);

/** Per file, checked by QuickJS between JavaScript steps: an endless loop is stopped here. */
export const TIME_LIMIT_MS = 1000;
/**
 * Past this the worker thread is terminated: QuickJS cannot interrupt a single long native call
 * (building a huge string), so the interrupt alone could overrun by seconds.
 */
export const HARD_LIMIT_MS = 3 * TIME_LIMIT_MS;
const MEMORY_LIMIT_MB = 32;
/** Starting a thread and loading the WASM engine takes ~50 ms; a busy machine may need far more. */
const STARTUP_LIMIT_MS = 30_000;

export interface ModelScript {
  readonly fileName: string;
  readonly source: string;
}

export interface JsDefinition {
  readonly kind: 'cube' | 'view';
  readonly name: string;
  readonly line?: number;
  readonly definition: Obj;
}

export type JsEvaluation = { ok: true; definitions: JsDefinition[] } | { ok: false; message: string; line?: number };

/** Runs each file and returns what its `cube()` and `view()` calls defined, as plain data, in the order given. */
export function evaluateModelScripts(files: readonly ModelScript[], compileContext: unknown): JsEvaluation[] {
  const results: Array<JsEvaluation | undefined> = files.map(() => undefined);
  // A terminated worker cannot continue; a new one starts at the file after the one that was cut off.
  for (let next = 0; next < files.length;) next = runWorker(files, next, JSON.stringify(compileContext ?? {}), results);
  return results.map((result) => result ?? { ok: false, message: 'internal error: the sandbox returned no result' });
}

/** A sandbox thread kept between compiles: starting one costs tens of milliseconds, most of a small compile. */
let warm: { worker: Worker; port: MessagePort } | undefined;

function sandboxThread(): { worker: Worker; port: MessagePort } {
  if (warm) return warm;
  const channel = new MessageChannel();
  const worker = new Worker(WORKER, {
    workerData: { port: channel.port2, prelude: PRELUDE, timeLimitMs: TIME_LIMIT_MS, memoryLimitBytes: MEMORY_LIMIT_MB * 1024 * 1024 },
    transferList: [channel.port2],
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  // Neither the idle thread nor its port may keep a process alive that has nothing else to do.
  worker.unref();
  channel.port1.unref();
  warm = { worker, port: channel.port1 };
  return warm;
}

function discard(thread: { worker: Worker; port: MessagePort }): void {
  if (warm === thread) warm = undefined;
  thread.port.close();
  void thread.worker.terminate();
}

/** Runs files from `first` on; returns the index of the first file not run (after one that was cut off). */
function runWorker(files: readonly ModelScript[], first: number, compileContext: string, results: Array<JsEvaluation | undefined>): number {
  const thread = sandboxThread();
  const progress = new Int32Array(new SharedArrayBuffer(4));
  thread.port.postMessage({ progress, files, first, compileContext });
  const collect = (): void => {
    for (let received = receiveMessageOnPort(thread.port); received; received = receiveMessageOnPort(thread.port)) {
      const message: unknown = received.message;
      if (!isObj(message) || typeof message['index'] !== 'number') continue;
      const file = files[message['index']];
      if (file) results[message['index']] = toEvaluation(message['result'], file.fileName);
    }
  };
  // progress: 0 before the first file, 2i+1 while file i runs, 2i+2 once its result is posted.
  for (;;) {
    const state = Atomics.load(progress, 0);
    if (state === 2 * files.length) break;
    if (Atomics.wait(progress, 0, state, state === 0 ? STARTUP_LIMIT_MS : HARD_LIMIT_MS) !== 'timed-out') continue;
    collect();
    discard(thread);
    if (state === 0) {
      for (let index = first; index < files.length; index++)
        results[index] = { ok: false, message: 'the JavaScript sandbox did not start in time' };
      return files.length;
    }
    const stuck = state % 2 === 1 ? (state - 1) / 2 : state / 2;
    const file = files[stuck];
    if (file && results[stuck] === undefined) results[stuck] = timedOut(file.fileName, undefined, HARD_LIMIT_MS);
    return stuck + 1;
  }
  collect();
  return files.length;
}

function timedOut(fileName: string, line: number | undefined, limit = TIME_LIMIT_MS): JsEvaluation {
  return { ok: false, message: `${fileName} ran longer than ${limit} ms and was stopped (an endless loop?)`, line };
}

/** The worker's answer, checked: it crosses a thread boundary as untyped data. */
function toEvaluation(raw: unknown, fileName: string): JsEvaluation {
  if (!isObj(raw)) return { ok: false, message: 'internal error: malformed sandbox result' };
  const line = typeof raw['line'] === 'number' ? raw['line'] : undefined;
  if (raw['ok'] === true && typeof raw['json'] === 'string')
    return { ok: true, definitions: toDefinitions(JSON.parse(raw['json']) as unknown) };
  if (raw['timedOut'] === true) return timedOut(fileName, line);
  if (raw['outOfMemory'] === true) return { ok: false, message: `${fileName} used more than ${MEMORY_LIMIT_MB} MB and was stopped`, line };
  return { ok: false, message: typeof raw['message'] === 'string' ? raw['message'] : 'internal error', line };
}

function toDefinitions(raw: unknown): JsDefinition[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    if (!isObj(item) || (item['kind'] !== 'cube' && item['kind'] !== 'view') || typeof item['name'] !== 'string') return [];
    const definition = isObj(item['definition']) ? item['definition'] : {};
    const line = typeof item['line'] === 'number' ? item['line'] : undefined;
    return [{ kind: item['kind'], name: item['name'], line, definition }];
  });
}
