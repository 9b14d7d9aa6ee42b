import type { FastifyInstance, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
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
        if (id && !found.has(id) && Object.hasOwn(shared, id)) {
          found.set(id, shared[id]);
          pending.push(shared[id]);
        }
      } else if (typeof value === 'object') pending.push(value);
    }
  }
  return found;
}

/**
 * Validators and serializers compile on first use instead of at `ready()`: a server answers its
 * first request after compiling only what that request needs, and a test file that calls ten
 * routes never pays for the other two hundred. `compileAllSchemas` forces every one (the spec test
 * does), so a schema that cannot compile still fails a test rather than its first caller.
 */
const pendingCompilations = new WeakMap<FastifyInstance, Array<() => unknown>>();

/** Compiles every validator and serializer not compiled yet, and says how many the app has. */
export function compileAllSchemas(app: FastifyInstance): number {
  const all = pendingCompilations.get(app) ?? [];
  for (const force of all) force();
  return all.length;
}

/** `compile`, run once on first use; the app's list lets compileAllSchemas run it earlier. */
function once<T>(app: FastifyInstance, compile: () => T): () => T {
  let compiled: T | undefined;
  const get = () => (compiled ??= compile());
  let list = pendingCompilations.get(app);
  if (!list) pendingCompilations.set(app, (list = []));
  list.push(get);
  return get;
}

type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null | undefined };

/** A validator compiler that compiles each route's schema on its first request. */
export function lazyValidatorCompiler(app: FastifyInstance, compile: FastifySchemaCompiler<object>): FastifySchemaCompiler<object> {
  return (route) => {
    const compiled = once(app, () => compile(route) as Validator);
    const validate: Validator = (data) => {
      const inner = compiled();
      const valid = inner(data);
      // Fastify reads a validator's errors from the function it called.
      validate.errors = inner.errors;
      return valid;
    };
    return validate;
  };
}

/** Response serializers by fast-json-stringify, compiled on first use with only the shared schemas they refer to. */
export function installLazySerializers(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    const compiled = once(app, () => {
      const external = Object.fromEntries(referencedSchemas(schema, app.getSchemas()));
      const id = (schema as { $id?: string }).$id;
      if (id) delete external[id];
      return fastJsonStringify(schema as object, { schema: external as Record<string, fastJsonStringify.Schema> });
    });
    return (data) => compiled()(data);
  });
}
