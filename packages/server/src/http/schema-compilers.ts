import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

type SharedSchemas = Record<string, unknown>;

/**
 * The shared schemas a schema refers to, directly or through each other. Compilers are handed
 * only these: fast-json-stringify re-validates every external schema it is given for every
 * serializer, so handing it all of them made `ready()` take seconds (about 1,500 serializers × 250
 * schemas) where the referenced few take milliseconds.
 */
export function referencedSchemas(schema: unknown, shared: SharedSchemas): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      // A property named `$ref` (SCIM's members) holds a schema, not a reference: only a string refers.
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0]!;
        if (id && !found.has(id) && shared[id] !== undefined) {
          found.set(id, shared[id]);
          pending.push(shared[id]);
        }
      } else if (typeof value === 'object') pending.push(value);
    }
  }
  return found;
}

/**
 * Compiles on first use instead of at `ready()`: a server answers its first request after
 * compiling only what that request needs, and a test file that calls ten routes never pays for
 * the other two hundred. `compileAll` on the app forces every one (the spec test does), so a
 * schema that cannot compile still fails a test rather than its first caller.
 */
function lazily<F extends (...args: never[]) => unknown>(compile: () => F, register: (force: () => void) => void): F {
  let compiled: F | undefined;
  const get = () => (compiled ??= compile());
  register(get);
  const call = function (this: unknown, ...args: Parameters<F>) {
    const inner = get();
    const result = inner.apply(this, args);
    // Fastify reads a validator's errors from the function it called.
    (call as unknown as { errors?: unknown }).errors = (inner as unknown as { errors?: unknown }).errors;
    return result;
  };
  return call as unknown as F;
}

const pendingCompilations = new WeakMap<FastifyInstance, Array<() => void>>();

/** Compiles every validator and serializer not compiled yet: for tests that check all schemas compile. */
export function compileAllSchemas(app: FastifyInstance): void {
  for (const force of pendingCompilations.get(app) ?? []) force();
}

function registrar(app: FastifyInstance): (force: () => void) => void {
  let list = pendingCompilations.get(app);
  if (!list) pendingCompilations.set(app, (list = []));
  return (force) => list.push(force);
}

/** A validator compiler that compiles each route's schema on its first request. */
export function lazyValidatorCompiler(app: FastifyInstance, compile: FastifySchemaCompiler<object>): FastifySchemaCompiler<object> {
  const register = registrar(app);
  return (route) => lazily(() => compile(route) as (data: unknown) => boolean, register);
}

/** Response serializers by fast-json-stringify, compiled on first use with only the shared schemas they refer to. */
export function installLazySerializers(app: FastifyInstance): void {
  const register = registrar(app);
  app.setSerializerCompiler(({ schema }) =>
    lazily(() => {
      const external = Object.fromEntries(referencedSchemas(schema, app.getSchemas()));
      const id = (schema as { $id?: string }).$id;
      if (id) delete external[id];
      return fastJsonStringify(schema as object, { schema: external as Record<string, fastJsonStringify.Schema> });
    }, register),
  );
}
