import type { Ok } from '@plinth/api-client';
import { bodyOf, bool, pairs, positiveInt, readJsonArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { DATA_OPTION } from '../../core/rest.js';

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const generateSession = defineVerb({
  name: 'generate-session',
  summary: 'Mint an embed session for an external or internal user (generateSession; needs an admin API key)',
  options: [
    { flags: '--deployment <id>', description: 'deploymentId the session grants access to' },
    { flags: '--external-id <id>', description: 'Stable id of an external user' },
    { flags: '--internal-id <email>', description: 'An existing internal user (their permissions apply)' },
    { flags: '--email <email>', description: 'E-mail of the external user' },
    { flags: '--display-name <name>', description: 'userProfile.displayName' },
    { flags: '--picture <url>', description: 'userProfile.picture (http or https URL)' },
    { flags: '--tenant <name>', description: 'embedTenantName (default: the account)' },
    { flags: '--creator-mode', description: 'Mint a creator-mode session' },
    { flags: '--group <name>', description: 'Group name (repeatable); replaces memberships', repeatable: true },
    { flags: '--attribute <name=value>', description: 'User attribute (repeatable); JSON values allowed', repeatable: true },
    {
      flags: '--role <name>',
      description: "Role of the embedded user (repeatable); carried into the token's security context",
      repeatable: true,
    },
    { flags: '--ephemeral', description: 'isEphemeral: a user removed after its TTL that does not count toward the external-user limit' },
    { flags: '--ephemeral-ttl <seconds>', description: 'ephemeralTtlSeconds of an --ephemeral user (default 86400)' },
    { flags: '--public-dashboard <id>', description: 'publicDashboardId: the only dashboard the session may open' },
    { flags: '--theme <json>', description: 'embedTheme overrides as JSON, or @file (e.g. \'{"primaryColor":"#1a73e8"}\')' },
    { flags: '--show-dashboard-chat <bool>', description: 'settings.showDashboardChat for this session' },
    DATA_OPTION,
  ],
  examples: [
    'plinth embed generate-session --deployment 3 --external-id ada@example.com --group analysts --attribute region=emea',
    'plinth embed generate-session --deployment 3 --external-id guest-42 --ephemeral --ephemeral-ttl 3600 --role viewer',
    'plinth embed generate-session --deployment 3 --external-id ada@example.com --public-dashboard sales --theme \'{"font":"Inter"}\'',
    'plinth embed generate-session -d @session.json',
  ],
  async run(f, _args, opts) {
    const profile = opts.displayName || opts.picture ? { displayName: opts.displayName, picture: opts.picture } : undefined;
    const chat = bool(opts.showDashboardChat, '--show-dashboard-chat');
    if (opts.ephemeralTtl !== undefined && !opts.ephemeral) throw new UsageError('--ephemeral-ttl requires --ephemeral');
    const theme = opts.theme === undefined ? undefined : await readJsonArg(f.io, opts.theme, '--theme');
    if (theme !== undefined && (theme === null || typeof theme !== 'object' || Array.isArray(theme))) {
      throw new UsageError('--theme must be a JSON object');
    }
    const body = await bodyOf(f.io, opts.data, {
      deploymentId: opts.deployment === undefined ? undefined : positiveInt(opts.deployment, '--deployment'),
      externalId: opts.externalId,
      internalId: opts.internalId,
      email: opts.email,
      userProfile: profile,
      embedTenantName: opts.tenant,
      creatorMode: opts.creatorMode ? true : undefined,
      groups: opts.group,
      roles: opts.role,
      isEphemeral: opts.ephemeral ? true : undefined,
      ephemeralTtlSeconds: opts.ephemeralTtl === undefined ? undefined : positiveInt(opts.ephemeralTtl, '--ephemeral-ttl'),
      publicDashboardId: opts.publicDashboard,
      embedTheme: theme,
      userAttributes: opts.attribute
        ? pairs(opts.attribute, '--attribute').map(([name, value]) => ({ name, value: parseValue(value) }))
        : undefined,
      settings: chat === undefined ? undefined : { showDashboardChat: chat },
    });
    const response = await (
      await f.client()
    ).request<Ok<'/api/v1/embed/generate-session', 'post'>>('POST', '/api/v1/embed/generate-session', { body });
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.sessionId);
    f.output.status('Exchange it within 5 minutes: plinth embed token <session_id>');
  },
});
