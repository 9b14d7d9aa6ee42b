import { expectTypeOf, it } from 'vitest';
import type { MethodOf, Ok, Query, RequestBody, Schema } from './index.js';

// Checked by the compiler (`npm run typecheck`): a helper that read the wrong part of an operation
// would type every request of the CLI wrongly and still compile.
it('Ok is the body of the success answer, and undefined for 204', () => {
  expectTypeOf<Ok<'/api/v1/auth/whoami', 'get'>>().toEqualTypeOf<Schema<'WhoAmI'>>();
  expectTypeOf<Ok<'/api/v1/scim-tokens', 'post'>>().toEqualTypeOf<Schema<'CreatedScimToken'>>();
  expectTypeOf<Ok<'/api/v1/scim-tokens/{id}', 'delete'>>().toEqualTypeOf<undefined>();
});

it('Ok reads the JSON answer of an operation that also streams', () => {
  expectTypeOf<Ok<'/api/v1/deployments/{deploymentId}/logs', 'get'>>().toEqualTypeOf<Schema<'DeploymentLogList'>>();
});

it('RequestBody, Query and MethodOf read the request side', () => {
  expectTypeOf<RequestBody<'/api/v1/scim-tokens', 'post'>>().toEqualTypeOf<Schema<'CreateScimTokenInput'>>();
  expectTypeOf<Query<'/api/v1/deployments/{deploymentId}/logs', 'get'>>().toHaveProperty('follow');
  expectTypeOf<MethodOf<'/api/v1/auth/whoami'>>().toEqualTypeOf<'get'>();
  expectTypeOf<MethodOf<'/api/v1/scim-tokens'>>().toEqualTypeOf<'get' | 'post'>();
});
