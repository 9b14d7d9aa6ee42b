import { defineVerb } from '../../core/define.js';
import { CliError, HttpError } from '../../core/errors.js';

export const token = defineVerb({
  name: 'token',
  summary: 'Exchange a session id for an embed token, once (postTokenBySessionId)',
  args: ['<session_id>'],
  async run(f, [sessionId]) {
    const client = await f.client();
    const response = await client.request<{ token: string }>('POST', '/api/v1/embed/session/token', {
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
  summary: 'Revoke an embed session and its token (revokeEmbedSession)',
  args: ['<session_id>'],
  async run(f, [sessionId]) {
    await (await f.client()).request('POST', '/api/v1/embed/session/revoke', { body: { sessionId } });
    f.output.status(`Revoked embed session ${sessionId}`);
  },
});
