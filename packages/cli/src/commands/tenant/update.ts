import { bool, int } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';

/** `any` (or nothing between the commas) lifts the limit; the server checks each origin. */
function origins(value: unknown): string[] | null | undefined {
  if (typeof value !== 'string') return undefined;
  const list = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return list.length === 0 || (list.length === 1 && list[0] === 'any') ? null : list;
}

export const update = bodyVerb({
  name: 'update',
  summary: 'Change tenant settings (updateTenantSettings)',
  method: 'PATCH',
  path: () => '/api/v1/tenant-settings',
  options: [
    { flags: '--embedding-enabled <bool>', description: 'Allow signed embedding (generate-session answers 403 while false)' },
    { flags: '--use-creator-mode <bool>', description: 'Allow creator-mode embed sessions' },
    { flags: '--bulk-action-limit <n>', description: 'Largest bulk request (e.g. embed user provisioning)' },
    { flags: '--show-dashboard-chat <bool>', description: 'Show the AI chat on embedded dashboards by default' },
    {
      flags: '--embed-frame-ancestors <origins>',
      description: 'Comma-separated origins allowed to frame the embed pages (e.g. https://app.example.com); "any" for any origin',
    },
    { flags: '--max-external-users <n>', description: 'External (embed) users allowed' },
  ],
  fields: (opts) => ({
    embeddingEnabled: bool(opts.embeddingEnabled, '--embedding-enabled'),
    useCreatorMode: bool(opts.useCreatorMode, '--use-creator-mode'),
    bulkActionLimit: int(opts.bulkActionLimit, '--bulk-action-limit'),
    showDashboardChat: bool(opts.showDashboardChat, '--show-dashboard-chat'),
    embedFrameAncestors: origins(opts.embedFrameAncestors),
    maxExternalUsers: int(opts.maxExternalUsers, '--max-external-users'),
  }),
});
