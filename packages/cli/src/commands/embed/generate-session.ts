import { bodyOf, bool, pairs, positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
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
  summary: 'Mint an embed session for an external or internal user (generateSession; needs an API key)',
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
    { flags: '--show-dashboard-chat <bool>', description: 'settings.showDashboardChat for this session' },
    DATA_OPTION,
  ],
  examples: [
    'plinth embed generate-session --deployment 3 --external-id ada@example.com --group analysts --attribute region=emea',
    'plinth embed generate-session -d @session.json',
  ],
  async run(f, _args, opts) {
    const profile = opts.displayName || opts.picture ? { displayName: opts.displayName, picture: opts.picture } : undefined;
    const chat = bool(opts.showDashboardChat, '--show-dashboard-chat');
    const body = await bodyOf(f.io, opts.data, {
      deploymentId: opts.deployment === undefined ? undefined : positiveInt(opts.deployment, '--deployment'),
      externalId: opts.externalId,
      internalId: opts.internalId,
      email: opts.email,
      userProfile: profile,
      embedTenantName: opts.tenant,
      creatorMode: opts.creatorMode ? true : undefined,
      groups: opts.group,
      userAttributes: opts.attribute ? pairs(opts.attribute, '--attribute').map(([name, value]) => ({ name, value: parseValue(value) })) : undefined,
      settings: chat === undefined ? undefined : { showDashboardChat: chat },
    });
    const response = await (await f.client()).request('POST', '/api/v1/embed/generate-session', { body });
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.sessionId);
    f.output.status('Exchange it within 5 minutes: plinth embed token <session_id>');
  },
});
