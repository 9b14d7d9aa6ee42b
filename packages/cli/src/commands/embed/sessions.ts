import { listVerb } from '../../core/rest.js';

export const sessions = {
  ...listVerb({
    summary: 'List minted embed sessions, newest audit first (listEmbedSessions)',
    path: () => '/api/v1/embed/sessions',
    columns: [
      ['ID', 'id'],
      ['Created', 'createdAt'],
      ['Deployment', 'deploymentId'],
      ['Tenant', 'embedTenantName'],
      ['User', (s) => s.externalId ?? s.internalId],
      ['Creator', 'creatorMode'],
      ['Exchanged', 'exchanged'],
      ['Revoked', 'revoked'],
    ],
  }),
  name: 'sessions',
  aliases: undefined,
};
