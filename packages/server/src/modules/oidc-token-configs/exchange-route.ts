import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badEncodingIn, badValue } from '../../http/text-rule.js';
import { ExchangeError } from './exchange-error.js';
import { OidcTokenExchangeError, OidcTokenExchangeRequest, OidcTokenExchangeResponse } from './schemas.js';

const FORM = 'application/x-www-form-urlencoded';

/** RFC 6749 clients send forms; the parser lives in this plugin's scope (login has its own). */
function parseForm(_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) {
  const text = body.toString();
  // URLSearchParams would turn an escape that is not UTF-8 into U+FFFD without a word.
  const problem = badEncodingIn(text, 'form field');
  if (problem) return done(badValue(problem));
  done(null, Object.fromEntries(new URLSearchParams(text)));
}

/** `exchangeOidcToken`: public, since the subject token is the credential (exchange.ts checks it). */
export const exchangeRoute: FastifyPluginAsyncTypebox = async (app) => {
  (app as FastifyInstance).addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 32 * 1024 }, parseForm);
  const exchanger = app.services.oidcTokenExchange;

  app.post('/api/v1/oidc/token', {
    config: { auth: 'public', needsAccount: true },
    schema: {
      operationId: 'exchangeOidcToken',
      tags: ['OIDC Token Configs'],
      consumes: ['application/json', FORM],
      summary: 'Exchange an ID token for an access token (RFC 8693)',
      description:
        "Send `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`, `subject_token` (an ID token of an enabled config's issuer) and `subject_token_type` (`urn:ietf:params:oauth:token-type:id_token` or `…:jwt`). The token's signature (the issuer's JWKS), `iss`, `aud`, `exp`, `nbf` and algorithm are checked; its `email` (or `sub`, matched against externalId, as the config says) must name an active user of the account. The answer is an access token of that user, valid as a login's. No credential is needed: the subject token is the credential. Errors follow RFC 6749 5.2.",
      body: Type.Ref(OidcTokenExchangeRequest),
      response: {
        200: Type.Ref(OidcTokenExchangeResponse),
        400: Type.Ref(OidcTokenExchangeError),
        429: Type.Ref(OidcTokenExchangeError, { description: 'Too many failed exchanges from this address; see Retry-After' }),
        502: Type.Ref(OidcTokenExchangeError, { description: "The issuer's keys or discovery document could not be fetched" }),
      },
    },
    handler: async (request, reply) => {
      // RFC 6749 5.1: a response carrying a token must not be cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      try {
        return await exchanger.exchange(request.account.id, request.body, request.ip);
      } catch (error) {
        if (error instanceof ExchangeError) {
          if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
          return reply.code(error.status).send(error.toBody());
        }
        throw error;
      }
    },
  });
};
