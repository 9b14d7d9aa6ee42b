/**
 * JavaScript run inside the QuickJS sandbox before a model file. It defines `cube()` and `view()`,
 * answers every other free identifier with a reference object (`${orders.status}` → `{orders.status}`,
 * the compiler's own template syntax), refuses the names through which code in Node would reach the
 * process, modules or the network with a clear message, and turns what the file defined into JSON.
 * `__plinthCompileContext` is set by the host before this runs.
 */
export const PRELUDE = String.raw`
(() => {
  const REF = Symbol('reference');
  const DENIED = new Set(['process', 'require', 'module', 'exports', 'Buffer', 'fetch', 'XMLHttpRequest', 'WebSocket',
    '__dirname', '__filename', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'Deno', 'Bun', 'std', 'os']);
  const UNSUPPORTED_CALLS = new Set(['asyncModule', 'context']);
  const denied = (name) => new ReferenceError(name + ' is not available in a model file: model files run without access to the process, modules, files or the network');
  const reference = (path) => new Proxy(function () {}, {
    get(target, key) {
      if (key === REF) return path;
      if (key === Symbol.toPrimitive || key === 'toString' || key === 'valueOf') return () => '{' + path.join('.') + '}';
      if (typeof key !== 'string' || key === 'then') return undefined;
      return reference([...path, key]);
    },
    apply() {
      throw new TypeError(path.join('.') + '(...) is not supported by Plinth in a model file');
    },
  });
  Object.setPrototypeOf(globalThis, new Proxy({}, {
    has: (target, key) => typeof key === 'string',
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      if (DENIED.has(key)) throw denied(key);
      if (UNSUPPORTED_CALLS.has(key)) throw new ReferenceError(key + '() is not supported by Plinth in a model file');
      return reference([key]);
    },
  }));
  const definitions = [];
  const callerLine = () => {
    const frames = String(new Error().stack).split('\n');
    for (const frame of frames) {
      const match = /\((.*):(\d+)(?::\d+)?\)\s*$/.exec(frame);
      if (match && match[1] === __plinthFileName) return Number(match[2]);
    }
    return undefined;
  };
  const define = (kind) => (name, definition) => {
    if (typeof name !== 'string' && !(name && name[REF])) throw new TypeError(kind + '() needs a name as its first argument');
    definitions.push({ kind, name: String(name && name[REF] ? name[REF].join('.') : name), definition, line: callerLine() });
  };
  const parameters = (fn) => {
    const source = Function.prototype.toString.call(fn);
    const match = /^\s*(?:async\s*)?(?:function\b[^(]*)?\(([^)]*)\)/.exec(source) || /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
    return match ? match[1].split(',').map((p) => p.trim()).filter(Boolean) : [];
  };
  const plain = (value, key, depth) => {
    if (depth > 64) throw new RangeError('definition nested more than 64 levels deep');
    if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new RangeError(String(key) + ' is not a finite number');
      return value;
    }
    if ((typeof value === 'object' || typeof value === 'function') && value[REF]) {
      const path = value[REF].join('.');
      return key === 'sql' ? '{' + path + '}' : path;
    }
    if (typeof value === 'function') return plain(value(...parameters(value).map((p) => reference([p]))), key, depth + 1);
    if (value instanceof Promise) throw new TypeError(String(key) + ' is asynchronous; model files must define everything synchronously');
    if (Array.isArray(value)) return value.map((item) => plain(item, key, depth + 1));
    if (typeof value === 'object') {
      const out = {};
      for (const name of Object.keys(value)) out[name] = plain(value[name], name, depth + 1);
      return out;
    }
    throw new TypeError(String(key) + ' has a value of type ' + typeof value + ', which a model cannot hold');
  };
  Object.defineProperty(globalThis, 'cube', { value: define('cube') });
  Object.defineProperty(globalThis, 'view', { value: define('view') });
  Object.defineProperty(globalThis, 'COMPILE_CONTEXT', { value: JSON.parse(__plinthCompileContext) });
  Object.defineProperty(globalThis, '__plinthCollect', {
    value: () => JSON.stringify(definitions.map((d) => ({ kind: d.kind, name: d.name, line: d.line, definition: plain(d.definition, d.name, 0) }))),
  });
})();
`;
