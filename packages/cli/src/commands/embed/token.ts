import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { CliError, HttpError } from '../../core/errors.js';

export const token = defineVerb({
  name: 'token',
  summary: 'Exchange a session id for an embed token, once (postTokenBySessionId)',
  args: ['<session_id>'],
  async run(f, [sessionId]) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/embed/session/token', 'post'>>('POST', '/api/v1/embed/session/token', {
      body: { sessionId },
      allowErrors: true,
    });
    // A 401 here is about the session id, not the caller's login: no `plinth login` hint.
    if (response.status === 401) throw new CliError(client.errorOf(response).message);
    if (response.status >= 400) throw client.errorOf(response) as HttpError;
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.token);
  },
});

export const revoke = defineVerb({
  name: 'revoke',
  summary:
    'Revoke an embed session and its token, by the ID `embed sessions` lists or the session id (revokeEmbedSessionById, revokeEmbedSession)',
  args: ['<id_or_session_id>'],
  examples: ['plinth embed revoke 42', 'plinth embed revoke "$SESSION_ID"'],
  async run(f, [session]) {
    const client = await f.client();
    // Session ids are long random strings; the audit's ids are numbers.
    if (/^\d{1,10}$/.test(session!)) await client.request('POST', `/api/v1/embed/sessions/${session}/revoke`);
    else await client.request('POST', '/api/v1/embed/session/revoke', { body: { sessionId: session } });
    f.output.status(`Revoked embed session ${session}`);
  },
});
