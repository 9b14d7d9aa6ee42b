import type { components, operations, paths } from './spec.js';

export type { components, operations, paths };

/** A named schema of the API (`components.schemas`), such as `Schema<'Deployment'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** A path of the API as the spec writes it, parameters in braces: `/api/v1/deployments/{deploymentId}`. */
export type ApiPath = keyof paths;

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The methods a path answers. */
export type MethodOf<P extends ApiPath> = {
  [M in Method]: paths[P][M] extends { responses: object } ? M : never;
}[Method];

/** The operation of `method path`. */
export type Operation<P extends ApiPath, M extends MethodOf<P>> = paths[P][M] extends infer O extends { responses: object } ? O : never;

type SuccessCode = 200 | 201 | 202 | 204 | 207;

/** The JSON body of a response or request body: application/json where an operation also streams another type. */
type JsonOf<R> = R extends { content: infer C }
  ? C extends { 'application/json': infer Body }
    ? Body
    : C extends Record<string, infer Body>
      ? Body
      : never
  : undefined;

/**
 * The body of a success answer to `method path`. A 204 (no content) reads as undefined, as the CLI's
 * HTTP client parses an empty body.
 */
export type Ok<P extends ApiPath, M extends MethodOf<P>> = {
  [C in keyof Operation<P, M>['responses'] & SuccessCode]: JsonOf<Operation<P, M>['responses'][C]>;
}[keyof Operation<P, M>['responses'] & SuccessCode];

/** The JSON body `method path` takes. */
export type RequestBody<P extends ApiPath, M extends MethodOf<P>> =
  Operation<P, M> extends { requestBody?: infer B } ? NonNullable<JsonOf<NonNullable<B>>> : never;

/** The query parameters `method path` takes. */
export type Query<P extends ApiPath, M extends MethodOf<P>> = Operation<P, M> extends { parameters: { query?: infer Q } } ? Q : never;
