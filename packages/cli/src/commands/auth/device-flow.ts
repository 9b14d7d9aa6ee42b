import { hostname } from 'node:os';
import type { Schema } from '@plinth/api-client';
import type { Context } from '../../core/config.js';
import { AuthError, CliError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { Whoami } from './whoami.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * RFC 8628 from the client's side: ask for a device code, show the URL and the user code, then
 * poll the token endpoint every `interval` seconds, adding five seconds on `slow_down`, until the
 * user approves, denies, or the code expires.
 */
export async function deviceLogin(f: Factory, url: string): Promise<Context> {
  const client = f.clientFor({ url, scheme: 'bearer', source: 'device login' });
  const start = await client.request('POST', '/api/v1/auth/device/code', {
    anonymous: true,
    body: { client_name: `plinth CLI on ${hostname()}` },
  });
  const device = start.data as Schema<'DeviceCodeResponse'>;
  f.output.notice(`First copy your one-time code: ${device.user_code}`);
  f.output.notice(`Then open ${device.verification_uri_complete} in a browser, sign in and approve it.`);
  f.output.status('Waiting for approval…');

  let interval = Math.max(1, device.interval) * 1000;
  const deadline = Date.now() + device.expires_in * 1000;
  for (;;) {
    await f.io.wait(interval);
    const poll = await client.request('POST', '/api/v1/auth/token', {
      anonymous: true,
      allowErrors: true,
      body: { grant_type: DEVICE_GRANT, device_code: device.device_code },
    });
    if (poll.status === 200) {
      const tokens = poll.data as Schema<'TokenResponse'>;
      client.target.credential = tokens.access_token;
      client.target.scheme = 'bearer';
      const me = await client.request<Whoami | undefined>('GET', '/api/v1/auth/whoami');
      return {
        url,
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
        user: me.data?.user?.email ?? undefined,
      };
    }
    const error = (poll.data as { error?: string } | undefined)?.error;
    if (error === 'authorization_pending' && Date.now() < deadline) continue;
    if (error === 'slow_down') {
      interval += 5000;
      continue;
    }
    if (error === 'access_denied') throw new AuthError('The login request was denied in the browser');
    if (error === 'expired_token' || error === 'authorization_pending') {
      throw new AuthError('The code expired before it was approved', 'Run `plinth login` again.');
    }
    throw poll.status >= 400 ? client.errorOf(poll) : new CliError(`Unexpected answer from the token endpoint (HTTP ${poll.status})`);
  }
}
