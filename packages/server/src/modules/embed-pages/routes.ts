import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../http/errors.js';
import { embedPageCsp } from '../../pipeline/response-policy.js';
import { readWebBuild, type WebBuild } from './assets.js';
import { embedContextRoutes } from './context-routes.js';
import { homePage } from './home-page.js';
import { readSdk, sdkAnswer, type SdkBuild } from './sdk.js';

/** The pages are no operations of the API: out of the OpenAPI document, through the same pipeline. */
const hidden = { hide: true } as const;
/**
 * An embed page: the Host names the account (its frame-ancestors), no credential (the page
 * exchanges its session itself), never cached (each link's session is used once).
 */
const embedPage = { auth: 'public' as const, needsAccount: true, embedPage: true, carriesSecret: true };
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The paths of Cube's embed pages; one HTML shell stands for them all (the page reads its path). */
export const EMBED_PAGE_PATHS = ['/embed/dashboard/:publicId', '/embed/chat', '/embed/d/:deploymentId/app'] as const;

export function embedPagesRoutes(
  build: () => WebBuild | null,
  sdk: () => SdkBuild | null = untilFound(readSdk),
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const settings = app.services.tenantSettings;

    app.get('/', { config: { auth: 'public', page: true }, schema: hidden }, async (_request, reply) =>
      reply.header('content-type', 'text/html; charset=utf-8').send(homePage()),
    );

    const shell = async (request: FastifyRequest, reply: FastifyReply) => {
      const built = build();
      if (!built) throw notFound('The embed pages are not built on this server: run `npm run build`');
      const { embedFrameAncestors } = await settings.get(request.account.id);
      return reply
        .header('content-security-policy', embedPageCsp(embedFrameAncestors))
        .header('content-type', 'text/html; charset=utf-8')
        .send(built.shell);
    };
    for (const path of EMBED_PAGE_PATHS) app.get(path, { config: embedPage, schema: hidden }, shell);

    app.get('/assets/*', { config: { auth: 'public' }, schema: hidden }, async (request, reply) => {
      const asset = build()?.assets.get(request.url.split('?')[0] ?? '');
      if (!asset) throw notFound('No such asset');
      return reply.header('cache-control', IMMUTABLE).header('content-type', asset.contentType).send(asset.body);
    });

    await embedContextRoutes(app);

    // The embedding SDK (@plinth/embed's bundle): host pages load it from here as a module script.
    app.get('/embed/sdk.js', { config: { auth: 'public' }, schema: hidden }, async (request, reply) => {
      const answer = sdkAnswer(sdk(), request.headers['if-none-match']);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
  };
}

/** The build, read on first use and kept: assets are content-hashed, so a new build is a new server start. */
export function lazyBuild(read = readWebBuild): () => WebBuild | null {
  return lazy(read);
}

/** A file of the build, read on first use and kept (a new build is a new server start). */
export function lazy<T>(read: () => T | null): () => T | null {
  let built: T | null | undefined;
  return () => (built === undefined ? (built = read()) : built);
}

/** Read until found, then kept: after `npm run build` the SDK is served without a restart. */
export function untilFound<T>(read: () => T | null): () => T | null {
  let found: T | null = null;
  return () => found ?? (found = read());
}
