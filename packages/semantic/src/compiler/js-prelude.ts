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
    apply(target, self, args) {
      if (CONTEXT_ROOTS.has(path[0])) return contextCall(path, args);
      throw new TypeError(path.join('.') + '(...) is not supported by Plinth in a model file');
    },
  });
  // Context calls become the template text the YAML reader parses ({SECURITY_CONTEXT.x.filter('col')}),
  // so a JavaScript model and a YAML model go through the same code and bind their values the same way.
  const SECURITY_ROOTS = new Set(['SECURITY_CONTEXT', 'securityContext', 'security_context', 'USER_CONTEXT']);
  const CONTEXT_ROOTS = new Set([...SECURITY_ROOTS, 'FILTER_PARAMS', 'FILTER_GROUP']);
  const CALLER_ROOTS = new Set([...SECURITY_ROOTS, 'userAttributes', 'user_attributes']);
  // The YAML reader takes Python string literals without escapes: pick a quote the text does not hold.
  const QUOTES = ["'", '"', "'".repeat(3), '"'.repeat(3)];
  const pythonString = (text, prefix) => {
    const quote = QUOTES.find((q) => !text.includes(q) && !(q.length === 3 && text.endsWith(q[0])));
    if (quote === undefined) throw new TypeError('a filter column cannot hold both kinds of triple quotes: ' + text);
    return prefix + quote + text + quote;
  };
  const MARK = '\u0001';
  // A function column (Cube's filter((from, to) => ...)) is called with markers for its arguments and
  // becomes the YAML form's lambda (lambda from, to: f"...{from}..."), whose arguments are bound values.
  const column = (shown, value) => {
    // The column is written into the SQL as it is, as in the YAML form: a reference in it would stay text.
    if (typeof value === 'string' && /[{}]/.test(value))
      throw new TypeError(shown + '(...): the column ' + value + ' cannot hold a reference such as CUBE; name the column itself');
    if (typeof value === 'string') return pythonString(value, '');
    if (typeof value !== 'function') throw new TypeError(shown + '(...) takes a column as a string or a function returning SQL');
    const names = parameters(value).map((name, index) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : 'value' + index));
    const body = String(value(...names.map((name, index) => MARK + index + MARK)));
    if (/[{}]/.test(body)) throw new TypeError(shown + '(...): the SQL a filter function returns cannot contain { or }');
    const text = body.replace(/\u0001(\d+)\u0001/g, (all, index) => '{' + names[Number(index)] + '}');
    if (text.includes(MARK)) throw new TypeError(shown + '(...): a filter function must write its arguments into the SQL as they are');
    return 'lambda ' + names.join(', ') + ': ' + pythonString(text, 'f');
  };
  const contextCall = (path, args) => {
    const shown = path.join('.');
    const method = path[path.length - 1];
    const owner = path.slice(0, -1).join('.');
    if (path[0] === 'FILTER_GROUP' && path.length === 1) {
      const members = args.map((arg) => {
        const text = String(arg);
        if (!/^\{FILTER_PARAMS\.[\s\S]*\}$/.test(text)) throw new TypeError('FILTER_GROUP(...) takes FILTER_PARAMS.cube.member.filter(...) arguments');
        return text.slice(1, -1);
      });
      return '{FILTER_GROUP(' + members.join(', ') + ')}';
    }
    if (path[0] === 'FILTER_PARAMS' && path.length === 4 && method === 'filter' && args.length === 1)
      return '{' + owner + '.filter(' + column(shown, args[0]) + ')}';
    if (SECURITY_ROOTS.has(path[0]) && path.length > 2) {
      if (method === 'unsafeValue' && args.length === 0) return '{' + owner + '.unsafeValue()}';
      if ((method === 'filter' || method === 'requiredFilter') && args.length === 1)
        return '{' + owner + '.' + method + '(' + column(shown, args[0]) + ')}';
    }
    throw new TypeError(shown + '(...) is not supported by Plinth in a model file: expected SECURITY_CONTEXT.x.filter(column), ' +
      '.requiredFilter(column), .unsafeValue(), FILTER_PARAMS.cube.member.filter(column) or FILTER_GROUP(...)');
  };
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
      if (key === 'sql') return '{' + path + '}';
      // A policy's securityContext.x or userAttributes.x is read per query: the YAML placeholder, not the name as text.
      return CALLER_ROOTS.has(value[REF][0]) ? '{ ' + path + ' }' : path;
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
