import * as releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import { isObj, type Obj } from './fields.js';
import { PRELUDE } from './js-prelude.js';

/**
 * JavaScript model files run in QuickJS compiled to WebAssembly, not in Node: Node's `vm` shares
 * the process, while a WASM instance has nothing but the memory it is given. Loading the engine
 * is asynchronous and takes ~20 ms, done once when this module is imported so `compile()` stays
 * synchronous.
 */
const engine = await newQuickJSWASMModuleFromVariant(syncVariant(releaseSync));

/** The variant package is typed as CommonJS but loaded as ESM, so how deep `default` sits differs between types and runtime. */
function syncVariant(imported: unknown): QuickJSSyncVariant {
  let candidate = imported;
  for (let depth = 0; depth < 3 && isObj(candidate) && candidate['type'] !== 'sync'; depth++) candidate = candidate['default'];
  if (!isObj(candidate) || candidate['type'] !== 'sync')
    throw new Error('@jitl/quickjs-wasmfile-release-sync did not export a sync QuickJS variant');
  return candidate as unknown as QuickJSSyncVariant;
}

/**
 * Per file: past this, the file is stopped and reported (an endless loop must not hang a build or a
 * server). QuickJS checks the clock between JavaScript steps, not inside one native call, so a
 * single huge built-in operation (filling a 100,000-element sparse array) can overrun it by seconds.
 */
export const TIME_LIMIT_MS = 1000;
const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
const STACK_LIMIT_BYTES = 1024 * 1024;

export interface JsDefinition {
  readonly kind: 'cube' | 'view';
  readonly name: string;
  readonly line?: number;
  readonly definition: Obj;
}

export type JsEvaluation = { ok: true; definitions: JsDefinition[] } | { ok: false; message: string; line?: number };

/** Runs one model file and returns what its `cube()` and `view()` calls defined, as plain data. */
export function evaluateModelScript(fileName: string, source: string, compileContext: unknown): JsEvaluation {
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  const deadline = Date.now() + TIME_LIMIT_MS;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  // No module loader: `import` has nothing to load from.
  runtime.setModuleLoader((name) => ({ error: new Error(`cannot import ${name}: model files cannot import modules`) }));
  const context = runtime.newContext();
  try {
    for (const [name, value] of [
      ['__plinthFileName', fileName],
      ['__plinthCompileContext', JSON.stringify(compileContext ?? {})],
    ] as const) {
      const handle = context.newString(value);
      context.setProp(context.global, name, handle);
      handle.dispose();
    }
    const prelude = run(context, PRELUDE, '<plinth-prelude>');
    if (!prelude.ok) return { ok: false, message: `internal error preparing the sandbox: ${prelude.message}` };
    const evaluated = run(context, source, fileName);
    if (!evaluated.ok) return failure(evaluated, deadline, fileName);
    const collected = run(context, '__plinthCollect()', '<plinth-collect>');
    if (!collected.ok) return failure(collected, deadline, fileName);
    return { ok: true, definitions: toDefinitions(JSON.parse(String(collected.value)) as unknown) };
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

type RunResult = { ok: true; value: unknown } | { ok: false; message: string; line?: number; interrupted: boolean };

function run(context: QuickJSContext, code: string, fileName: string): RunResult {
  const result = context.evalCode(code, fileName, { type: 'global', strict: false });
  if (result.error) return describeError(context, result.error, fileName);
  const value: unknown = context.dump(result.value);
  result.value.dispose();
  return { ok: true, value };
}

function describeError(context: QuickJSContext, handle: QuickJSHandle, fileName: string): RunResult {
  const error: unknown = context.dump(handle);
  handle.dispose();
  if (!isObj(error)) return { ok: false, message: String(error), interrupted: false };
  const name = typeof error['name'] === 'string' ? error['name'] : 'Error';
  const message = typeof error['message'] === 'string' ? error['message'] : String(error);
  const stack = typeof error['stack'] === 'string' ? error['stack'] : '';
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  const line = typeof error['lineNumber'] === 'number' ? error['lineNumber'] : frame ? Number(frame[1]) : undefined;
  return { ok: false, message: `${name}: ${message}`, line, interrupted: name === 'InternalError' && message === 'interrupted' };
}

function failure(result: Extract<RunResult, { ok: false }>, deadline: number, fileName: string): JsEvaluation {
  if (result.interrupted || Date.now() >= deadline) {
    return { ok: false, message: `${fileName} ran longer than ${TIME_LIMIT_MS} ms and was stopped (an endless loop?)`, line: result.line };
  }
  if (/out of memory/i.test(result.message))
    return { ok: false, message: `${fileName} used more than 32 MB and was stopped`, line: result.line };
  return { ok: false, message: result.message, line: result.line };
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
