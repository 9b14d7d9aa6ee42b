import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthenticated } from './errors.js';
import { parseAuthorization, kindName } from './credential-header.js';
import { credentialLabel, type CredentialKind, type Principal, type RouteAuth } from './principal.js';
import type { AccountRow } from '../store/schema.js';

/**
 * Verifies a secret of one credential kind for an account, or throws a 401. A verifier may answer
 * synchronously (a credential it has just verified) so the common request never waits on a promise.
 */
export type CredentialVerifier = (account: AccountRow, secret: string) => Principal | Promise<Principal>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    credentialVerifiers: Partial<Record<CredentialKind, CredentialVerifier>>;
  }
}

/**
 * Authenticates every route from what it declares in `config.auth`: which credential kinds it
 * takes and which role it needs. A route that declares nothing is refused at start-up, so no
 * operation is ever open by accident.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('credentialVerifiers', {});
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined && !route.url.startsWith('/documentation')) {
      throw new Error(`Route ${route.method} ${route.url} does not declare config.auth`);
    }
  });

  // Callback style with a synchronous path: most requests carry a credential verified moments ago.
  app.addHook('preHandler', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return done();
    const admit = (principal: Principal) => {
      request.principal = principal;
      if (auth.role === 'admin' && principal.role !== 'admin') return done(forbidden('This operation requires the admin role'));
      done();
    };
    let verified: Principal | Promise<Principal>;
    try {
      verified = authenticate(app, request, auth.kinds);
    } catch (error) {
      return done(error as Error);
    }
    if (verified instanceof Promise) verified.then(admit, done);
    else admit(verified);
  });
});

function authenticate(app: FastifyInstance, request: FastifyRequest, kinds: readonly CredentialKind[]): Principal | Promise<Principal> {
  const presented = parseAuthorization(request.headers.authorization);
  if (!kinds.includes(presented.kind)) {
    const wanted = kinds.map((k) => credentialLabel[k]).join(' or ');
    throw unauthenticated(`A ${kindName[presented.kind]} is not accepted here: this operation requires ${wanted}`);
  }
  const verify = app.credentialVerifiers[presented.kind];
  if (!verify) throw new ApiError('internal_error', `No verifier for ${kindName[presented.kind]}s`);
  return verify(request.account, presented.secret);
}

/** The principal of an authenticated route; routes declared `public` never call this. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated('Authentication required');
  return request.principal;
}

/** Section 5 rule 1: a key scoped to deployments may act only on those. */
export function assertDeploymentInScope(principal: Principal, deploymentId: number): void {
  if (principal.deploymentIds !== null && !principal.deploymentIds.includes(deploymentId)) {
    throw forbidden(`This API key is not allowed to access deployment ${deploymentId}`);
  }
}
