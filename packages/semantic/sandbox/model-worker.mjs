// @ts-check
/**
 * Worker thread that evaluates JavaScript model files in QuickJS (WebAssembly). It is plain
 * JavaScript because it is started by path from both the TypeScript sources and the built package.
 * The compiler (src/compiler/js-sandbox.ts) waits on `progress` and terminates this thread when a
 * file runs past its hard limit, which also covers a long native call QuickJS cannot interrupt.
 *
 * Protocol: the thread stays up between compiles and takes jobs `{ progress, files, first,
 * compileContext }` on `port`. For file i, `progress[0]` becomes 2i+1 when it starts and 2i+2 when
 * its result has been posted back on `port` as `{ index, result }`.
 */
import { workerData } from 'node:worker_threads';
import * as releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline } from 'quickjs-emscripten-core';

/** @typedef {{ fileName: string, source: string }} ModelScript */
/** @typedef {{ ok: true, value: unknown } | { ok: false, message: string, line?: number, interrupted: boolean }} RunResult */

const { port, prelude, timeLimitMs, memoryLimitBytes } =
  /** @type {{ port: import('node:worker_threads').MessagePort, prelude: string, timeLimitMs: number, memoryLimitBytes: number }} */ (
    workerData
  );

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isRecord = (value) => typeof value === 'object' && value !== null;

/** The variant package is typed as CommonJS but loaded as ESM; find the object that is the variant. */
function syncVariant(/** @type {unknown} */ imported) {
  let candidate = imported;
  for (let depth = 0; depth < 3 && isRecord(candidate) && candidate['type'] !== 'sync'; depth++) candidate = candidate['default'];
  if (!isRecord(candidate) || candidate['type'] !== 'sync') throw new Error('@jitl/quickjs-wasmfile-release-sync exported no sync variant');
  return /** @type {import('quickjs-emscripten-core').QuickJSSyncVariant} */ (/** @type {unknown} */ (candidate));
}

const engine = await newQuickJSWASMModuleFromVariant(syncVariant(releaseSync));

/**
 * @param {import('quickjs-emscripten-core').QuickJSContext} context
 * @param {string} code
 * @param {string} fileName
 * @returns {RunResult}
 */
function run(context, code, fileName) {
  const result = context.evalCode(code, fileName, { type: 'global', strict: false });
  if (result.error) {
    const error = context.dump(result.error);
    result.error.dispose();
    if (typeof error !== 'object' || error === null) return { ok: false, message: String(error), interrupted: false };
    const name = typeof error.name === 'string' ? error.name : 'Error';
    const message = typeof error.message === 'string' ? error.message : String(error);
    const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const frame = new RegExp(`${escaped}:(\\d+)`).exec(typeof error.stack === 'string' ? error.stack : '');
    const line = typeof error.lineNumber === 'number' ? error.lineNumber : frame ? Number(frame[1]) : undefined;
    return { ok: false, message: `${name}: ${message}`, line, interrupted: name === 'InternalError' && message === 'interrupted' };
  }
  const value = context.dump(result.value);
  result.value.dispose();
  return { ok: true, value };
}

/** @typedef {{ progress: Int32Array, files: ModelScript[], first: number, compileContext: string }} Job */

/**
 * Runs one file and posts its result before the runtime is freed: freeing a heap that reached the
 * memory limit can take seconds, which must not count against the file.
 * @param {ModelScript} file
 * @param {string} compileContext
 * @param {(result: object) => void} report
 */
function evaluate(file, compileContext, report) {
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(memoryLimitBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const deadline = Date.now() + timeLimitMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  runtime.setModuleLoader((name) => ({ error: new Error(`cannot import ${name}: model files cannot import modules`) }));
  const context = runtime.newContext();
  try {
    for (const [name, value] of [
      ['__plinthFileName', file.fileName],
      ['__plinthCompileContext', compileContext],
    ]) {
      const handle = context.newString(value);
      context.setProp(context.global, name, handle);
      handle.dispose();
    }
    const prepared = run(context, prelude, '<plinth-prelude>');
    if (!prepared.ok) return report({ ok: false, message: `internal error preparing the sandbox: ${prepared.message}` });
    for (const [code, name] of [
      [file.source, file.fileName],
      ['__plinthCollect()', '<plinth-collect>'],
    ]) {
      const result = run(context, code, name);
      if (result.ok && name !== file.fileName) return report({ ok: true, json: String(result.value) });
      if (result.ok) continue;
      if (result.interrupted || Date.now() >= deadline) return report({ ok: false, timedOut: true, line: result.line });
      if (/out of memory/i.test(result.message)) return report({ ok: false, outOfMemory: true, line: result.line });
      return report({ ok: false, message: result.message, line: result.line });
    }
    return report({ ok: false, message: 'internal error: nothing collected' });
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

port.on('message', (/** @type {Job} */ job) => {
  const { progress, files, first, compileContext } = job;
  for (let index = first; index < files.length; index++) {
    Atomics.store(progress, 0, 2 * index + 1);
    Atomics.notify(progress, 0);
    let reported = false;
    const report = (/** @type {object} */ result) => {
      reported = true;
      port.postMessage({ index, result });
    };
    try {
      evaluate(/** @type {ModelScript} */ (files[index]), compileContext, report);
    } catch (error) {
      if (!reported) report({ ok: false, message: `internal error: ${error instanceof Error ? error.message : String(error)}` });
    }
    Atomics.store(progress, 0, 2 * index + 2);
    Atomics.notify(progress, 0);
  }
});
