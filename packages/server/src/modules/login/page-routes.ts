import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { badEncodingIn, badValue } from '../../http/text-rule.js';
import { DEVICE_PAGE_PATH } from './device.js';
import { INVITE_PAGE_PATH } from './invites.js';
import { devicePage, donePage, invitePage } from './pages.js';
import { StringEnum } from '../../http/common-schemas.js';

const tags = ['Authentication'];
/**
 * The pages hold user codes, invite tokens and passwords typed into them: never cached; and they
 * are pages, with the page policy's CSP (no scripts, forms post only to this server, no framing).
 */
const open = { auth: 'public' as const, needsAccount: true, carriesSecret: true, page: true };
const html = (description: string) => ({ description, content: { 'text/html': { schema: Type.String() } } });
const pageResponses = {
  200: html('The page'),
  400: html('The page with what was wrong'),
  401: html('The page, sign-in failed'),
  404: html('The page, the code or link is unknown'),
  429: html('The page, too many attempts: wait as long as Retry-After says'),
};
const formConsumes = ['application/x-www-form-urlencoded'];

export function parseForm(_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) {
  const text = body.toString();
  // URLSearchParams would turn an escape that is not UTF-8 into U+FFFD without a word.
  const problem = badEncodingIn(text, 'form field');
  if (problem) return done(badValue(problem));
  done(null, Object.fromEntries(new URLSearchParams(text)));
}

function sendPage(reply: FastifyReply, status: number, page: string) {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(page);
}

const statusOf = (error: unknown) => (error instanceof ApiError && error.status < 500 ? error.status : 500);

/** The verification page of the device flow and the invite page: plain forms, rendered here. */
export const loginPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const login = app.services.login;

  app.get(DEVICE_PAGE_PATH, {
    config: open,
    schema: {
      operationId: 'getDeviceVerificationPage',
      tags,
      summary: 'Verification page of the device login (HTML)',
      querystring: Type.Object({ user_code: Type.Optional(Type.String({ maxLength: 20 })) }),
      response: { 200: html('The sign-in form') },
    },
    handler: async (request, reply) => {
      const userCode = request.query.user_code;
      const pending = userCode ? await login.device.pending(request.account.id, userCode).catch(() => undefined) : undefined;
      return sendPage(reply, 200, devicePage({ action: DEVICE_PAGE_PATH, userCode, clientName: pending?.client_name ?? null }));
    },
  });

  app.post(DEVICE_PAGE_PATH, {
    config: open,
    schema: {
      operationId: 'submitDeviceVerification',
      tags,
      consumes: formConsumes,
      summary: 'Approve or deny a device login with e-mail and password (HTML form)',
      body: Type.Object({
        user_code: Type.String({ maxLength: 20 }),
        email: Type.String({ maxLength: 320 }),
        password: Type.String({ maxLength: 256 }),
        decision: StringEnum(['approve', 'deny']),
      }),
      response: pageResponses,
    },
    handler: async (request, reply) => {
      const { user_code: userCode, email, password, decision } = request.body;
      try {
        await login.device.pending(request.account.id, userCode);
        const user = await login.signIn.authenticate(request.account.id, email, password, request.ip);
        await login.device.decide(request.account.id, userCode, user.id, decision === 'approve');
      } catch (error) {
        const message = error instanceof ApiError ? error.message : 'Something went wrong; try again';
        const retryAfter = error instanceof ApiError ? error.extra.retryAfterSeconds : undefined;
        if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
        return sendPage(reply, statusOf(error), devicePage({ action: DEVICE_PAGE_PATH, userCode, email, error: message }));
      }
      return decision === 'approve'
        ? sendPage(reply, 200, donePage('Device approved', 'You are signed in. Return to your terminal; you can close this page.'))
        : sendPage(reply, 200, donePage('Device denied', 'The login request was denied. You can close this page.'));
    },
  });

  app.get(INVITE_PAGE_PATH, {
    config: open,
    schema: {
      operationId: 'getInvitePage',
      tags,
      summary: 'Invite page: set a password (HTML)',
      querystring: Type.Object({ token: Type.String({ maxLength: 200 }) }),
      response: pageResponses,
    },
    handler: async (request, reply) => {
      const { token } = request.query;
      try {
        const { email } = await login.invites.describe(request.account.id, token);
        return sendPage(reply, 200, invitePage({ action: INVITE_PAGE_PATH, token, email }));
      } catch (error) {
        return sendPage(reply, statusOf(error), donePage('Invite link not usable', (error as Error).message));
      }
    },
  });

  app.post(INVITE_PAGE_PATH, {
    config: open,
    schema: {
      operationId: 'submitInvite',
      tags,
      consumes: formConsumes,
      summary: 'Set a password through an invite link (HTML form)',
      body: Type.Object({
        token: Type.String({ maxLength: 200 }),
        password: Type.String({ maxLength: 256 }),
        confirm: Type.String({ maxLength: 256 }),
      }),
      response: pageResponses,
    },
    handler: async (request, reply) => {
      const { token, password, confirm } = request.body;
      try {
        if (password !== confirm) throw new ApiError('bad_request', 'The two passwords differ');
        const { email } = await login.invites.accept(request.account.id, token, password);
        return sendPage(reply, 200, donePage('Password set', `You can now sign in as ${email}.`));
      } catch (error) {
        const message = error instanceof ApiError ? error.message : 'Something went wrong; try again';
        return sendPage(reply, statusOf(error), invitePage({ action: INVITE_PAGE_PATH, token, error: message }));
      }
    },
  });
};
