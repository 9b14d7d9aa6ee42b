import { defineVerb } from '../../core/define.js';

export const token = defineVerb({
  name: 'token',
  summary: 'Exchange a session id for an embed token, once (postTokenBySessionId)',
  args: ['<session_id>'],
  async run(f, [sessionId]) {
    const response = await (await f.client()).request('POST', '/api/v1/embed/session/token', { body: { sessionId } });
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
