import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthenticated } from './errors.js';
import { kindName } from './credential-header.js';
import type { ContentPrincipal, CredentialKind, Principal, UserPrincipal } from './principal.js';
import { compileRequirement, isResourceSource, type Check, type RouteAuth } from './requirement.js';
import type { CredentialVerifiers } from '../pipeline/credentials.js';
import type { RequestPipeline } from '../pipeline/pipeline.js';
import { routeConfig } from './route-config.js';

export type { CredentialVerifier, CredentialVerifiers } from '../pipeline/credentials.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Compiled from `auth` when the route is added; not for routes to set. */
    authCheck?: Check;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** The pipeline's verifiers (pipeline/credentials.ts), where modules register theirs. */
    credentialVerifiers: CredentialVerifiers;
    /** What each operation (by operationId) declares; the shared authorisation suite derives its cases from it. */
    operationAuth: Map<string, RouteAuth>;
  }
}

/**
 * Fastify's side of admission (pipeline/credentials.ts `admit`): every route declares in `config.auth` which
 * credential kinds it takes, the permission it needs and where its resource comes from (see
 * requirement.ts). A route that declares nothing is refused when added, and one that accepts a
 * kind of credential nothing can verify stops the app from starting, so no operation is ever
 * open, or always closed, by accident.
 */
export const authPlugin = fp(async (app: FastifyInstance, { pipeline }: { pipeline: RequestPipeline }) => {
  const { credentials } = pipeline;
  app.decorate('credentialVerifiers', credentials.verifiers);
  app.decorateRequest('principal', null);
  app.decorate('operationAuth', new Map<string, RouteAuth>());
  const accepted: Array<{ route: string; kinds: readonly CredentialKind[] }> = [];

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth === undefined && !route.url.startsWith('/documentation')) {
      throw new Error(`Route ${route.method} ${route.url} does not declare config.auth`);
    }
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (auth !== undefined && operationId) app.operationAuth.set(operationId, auth);
    if (auth === undefined || auth === 'public') return;
    // The type requires it; this catches a declaration built around the type (a cast, plain JS).
    if (!isResourceSource(auth.resource)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} does not say whether it is account-wide: declare its resource ('account', 'withinScope', a deployment or 'requestedCredential')`,
      );
    }
    // A refusal says what could not be done: the route's own words, else its summary.
    const summary = (route.schema as { summary?: string } | undefined)?.summary;
    const doing = auth.doing ?? (summary ? lowerFirst(summary) : undefined);
    // Compiled once here so a request only runs the check, with nothing to interpret.
    route.config = { ...route.config, authCheck: compileRequirement(doing ? { ...auth, doing } : auth) };
    accepted.push({ route: `${String(route.method)} ${route.url}`, kinds: auth.kinds });
  });

  // Verifiers are registered by modules as they load, so this waits for the finished app.
  app.addHook('onReady', (done) => {
    for (const { route, kinds } of accepted) {
      const missing = credentials.unverifiable(kinds);
      if (missing) return done(new Error(`Route ${route} accepts ${kindName[missing]}s, but no verifier for them is registered`));
    }
    done();
  });

  // Callback style with a synchronous path: most requests carry a credential verified moments ago.
  app.addHook('preHandler', (request, _reply, done) => {
    const config = routeConfig(request);
    const auth = config.auth;
    if (auth === undefined || auth === 'public') return done();
    let admitted: Principal | Promise<Principal>;
    try {
      admitted = credentials.admit(request.account, request.headers.authorization, auth.kinds, config.authCheck!, request);
    } catch (error) {
      return done(error as Error);
    }
    if (!(admitted instanceof Promise)) {
      request.principal = admitted;
      return done();
    }
    admitted.then((principal) => {
      request.principal = principal;
      done();
    }, done);
  });
});

/** 'Create a deployment' → 'create a deployment'; an acronym ('SCIM …', 'AI …') keeps its capitals. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** The principal of an authenticated route; routes declared `public` never call this. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated('Authentication required');
  return request.principal;
}

/**
 * The principal of a workspace route that also takes embed tokens (arriving under the dataToken
 * kind): a user's credential or an embed token; a data API token proper never reaches a handler
 * (it holds none of these routes' permissions), and is refused here all the same.
 */
export function contentPrincipalOf(request: FastifyRequest): ContentPrincipal {
  const principal = principalOf(request);
  if (principal.kind === 'apiKey' || principal.kind === 'accessToken' || principal.kind === 'embedToken') return principal;
  throw unauthenticated('Authentication required');
}

/** The principal of a route that accepts only credentials of internal users (API keys, access tokens). */
export function userPrincipalOf(request: FastifyRequest): UserPrincipal {
  const principal = principalOf(request);
  if (principal.kind !== 'apiKey' && principal.kind !== 'accessToken') throw unauthenticated('Authentication required');
  return principal;
}
