import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { AuthError, UsageError } from '../../core/errors.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const TYPES: Record<string, string> = {
  id_token: 'urn:ietf:params:oauth:token-type:id_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
};

export const exchange = defineVerb({
  name: 'exchange',
  summary: 'Exchange an ID token of a trusted issuer for an access token of its user (exchangeOidcToken)',
  description:
    'Prints only the access token, for scripts (e.g. `Authorization: Bearer …`). No credential is needed or sent: the ID token is the credential.\n' +
    'Give the ID token with --subject-token-stdin (it then never appears in the process list) or --subject-token.',
  options: [
    { flags: '--subject-token <jwt>', description: 'The ID token' },
    { flags: '--subject-token-stdin', description: 'Read the ID token from standard input' },
    { flags: '--token-type <type>', description: 'id_token (default) or jwt', choices: Object.keys(TYPES) },
  ],
  examples: ['printf %s "$ID_TOKEN" | plinth oidc exchange --subject-token-stdin'],
  async run(f, _args, opts) {
    if ((opts.subjectToken === undefined) === !opts.subjectTokenStdin) {
      throw new UsageError('give the ID token with --subject-token <jwt> or --subject-token-stdin');
    }
    const token = (opts.subjectToken ?? (await f.io.readStdin())).trim();
    if (!token) throw new UsageError('The ID token is empty');
    const target = await f.target().catch((error: unknown) => {
      if (error instanceof AuthError) throw new UsageError('No server configured: set PLINTH_API_URL or use a context');
      throw error;
    });
    const body = { grant_type: GRANT, subject_token: token, subject_token_type: TYPES[opts.tokenType ?? 'id_token']! };
    const response = await f
      .clientFor(target)
      .request<Ok<'/api/v1/oidc/token', 'post'>>('POST', '/api/v1/oidc/token', { anonymous: true, body });
    if (f.output.json) return f.output.raw(response);
    f.output.data(`${response.data.access_token}\n`);
    f.output.notice(`Access token valid for ${response.data.expires_in} s`);
  },
});
